#include "dtcrit/core/worker_pool.hpp"

#include <fmt/format.h>

#include "dtcrit/core/check.hpp"

namespace dtcrit {

WorkerPool::WorkerPool(int threads) {
  if (threads < 1) fail(fmt::format("threads = {} must be at least 1", threads));
  workers_.reserve(static_cast<std::size_t>(threads - 1));
  for (int w = 1; w < threads; ++w) workers_.emplace_back([this] { worker(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (auto& t : workers_) t.join();
}

// Takes the current loop's tasks one index at a time until none is left; `lock` holds mutex_.
void WorkerPool::work_on_current_loop(std::unique_lock<std::mutex>& lock) {
  while (next_ < tasks_) {
    const int r = next_++;
    ++running_;
    lock.unlock();
    std::exception_ptr error;
    try {
      (*task_)(r);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    if (error && !error_) error_ = error;
    --running_;
  }
  if (running_ == 0) finished_.notify_all();
}

void WorkerPool::worker() {
  std::uint64_t seen = 0;
  std::unique_lock lock(mutex_);
  for (;;) {
    start_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    work_on_current_loop(lock);
  }
}

void WorkerPool::run(int tasks, const std::function<void(int)>& task) {
  if (tasks <= 0) return;
  std::unique_lock lock(mutex_);
  task_ = &task;
  tasks_ = tasks;
  next_ = 0;
  running_ = 0;
  error_ = nullptr;
  ++generation_;
  if (!workers_.empty() && tasks > 1) start_.notify_all();
  work_on_current_loop(lock);
  finished_.wait(lock, [&] { return running_ == 0; });
  task_ = nullptr;
  tasks_ = 0;
  if (error_) {
    const std::exception_ptr e = error_;
    error_ = nullptr;
    std::rethrow_exception(e);
  }
}

}  // namespace dtcrit
