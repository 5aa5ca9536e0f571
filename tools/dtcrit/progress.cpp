#include "progress.hpp"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <iostream>

#include <fmt/format.h>

namespace dtcrit::cli {

std::function<void(std::string_view)> terminal_progress() {
  const bool tty = isatty(STDERR_FILENO) != 0;
  const auto t_start = std::chrono::steady_clock::now();
  return [tty, t_start](std::string_view what) {
    if (!tty) return;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
    std::cerr << fmt::format("[{:8.2f} s] {}\n", s, what) << std::flush;
  };
}

ProgressBar::ProgressBar(std::string unit)
    : unit_(std::move(unit)),
      enabled_(isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()),
      last_(start_ - std::chrono::seconds(1)) {}

double ProgressBar::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ProgressBar::update(std::size_t done, std::size_t total) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(200) && done < total) return;
  last_ = now;
  const int width = 30;
  const int filled = static_cast<int>(width * std::min(done, total) / std::max<std::size_t>(total, 1));
  std::cerr << fmt::format("\r[{}{}] {}/{} {}  {:<24}", std::string(filled, '#'), std::string(width - filled, ' '),
                           done, total, unit_, time_left(elapsed(), done, total))
            << std::flush;
  drawn_ = true;
}

void ProgressBar::finish() {
  if (enabled_ && drawn_) std::cerr << "\r" << std::string(100, ' ') << "\r" << std::flush;
  drawn_ = false;
}

}  // namespace dtcrit::cli
