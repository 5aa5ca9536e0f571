#include "dtcrit/core/parts_pool.hpp"

namespace dtcrit {

PartsPool::PartsPool(int workers) {
  threads_.reserve(static_cast<std::size_t>(workers > 0 ? workers : 0));
  for (int w = 0; w < workers; ++w) threads_.emplace_back([this] { work(); });
}

PartsPool::~PartsPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
}

void PartsPool::claim(std::uint32_t generation, const std::function<void(int)>* job, int parts) {
  const std::uint64_t tag = static_cast<std::uint64_t>(generation) << 32;
  std::uint64_t cur = next_.load();
  for (;;) {
    if ((cur & ~0xffffffffull) != tag || static_cast<int>(cur & 0xffffffffull) >= parts) return;
    if (!next_.compare_exchange_weak(cur, cur + 1)) continue;  // cur reloaded
    const int part = static_cast<int>(cur & 0xffffffffull);
    std::exception_ptr error;
    try {
      (*job)(part);
    } catch (...) {
      error = std::current_exception();
    }
    {
      std::lock_guard lock(mutex_);
      if (error && !error_) error_ = error;
      if (++done_ == parts) finished_.notify_all();
    }
    cur = next_.load();
  }
}

void PartsPool::work() {
  std::uint32_t seen = 0;
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    const auto* job = job_;
    const int parts = parts_;
    lock.unlock();
    claim(seen, job, parts);
    lock.lock();
  }
}

void PartsPool::run(int parts, const std::function<void(int)>& part) {
  if (parts <= 0) return;
  std::uint32_t generation;
  {
    std::lock_guard lock(mutex_);
    generation = ++generation_;
    job_ = &part;
    parts_ = parts;
    done_ = 0;
    error_ = nullptr;
    next_.store(static_cast<std::uint64_t>(generation) << 32);
  }
  if (parts > 1) wake_.notify_all();
  claim(generation, &part, parts);
  std::exception_ptr error;
  {
    std::unique_lock lock(mutex_);
    finished_.wait(lock, [&] { return done_ == parts_; });
    job_ = nullptr;
    error = error_;
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace dtcrit
