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
      if (++done_ == parts && caller_blocked_) finished_.notify_all();
    }
    cur = next_.load();
  }
}

namespace {

// Spins until ready() or `limit` has passed; whether ready() held.
template <class F>
bool spin_until(F&& ready, std::chrono::microseconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  for (int i = 1;; ++i) {
    if (ready()) return true;
    if (i % 64 == 0 && std::chrono::steady_clock::now() > end) return false;
  }
}

}  // namespace

void PartsPool::work() {
  std::uint32_t seen = 0;
  std::unique_lock lock(mutex_);
  for (;;) {
    if (generation_ == seen && !stop_) {  // spin, then sleep until a new job or the end
      lock.unlock();
      spin_until([&] { return generation_.load() != seen; }, kSpin);
      lock.lock();
      ++sleepers_;
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      --sleepers_;
    }
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
  bool sleeping = false;
  {
    std::lock_guard lock(mutex_);
    job_ = &part;
    parts_ = parts;
    done_ = 0;
    error_ = nullptr;
    generation = generation_.load() + 1;
    next_.store(static_cast<std::uint64_t>(generation) << 32);
    generation_ = generation;  // a worker that sees it takes the job under mutex_, all of it in place
    sleeping = sleepers_ > 0;
  }
  if (parts > 1 && sleeping) wake_.notify_all();  // spinning workers see the generation change
  claim(generation, &part, parts);
  spin_until([&] { return done_.load() == parts; }, kSpin);
  std::exception_ptr error;
  {
    std::unique_lock lock(mutex_);
    caller_blocked_ = true;  // the last part notifies only a caller that sleeps
    finished_.wait(lock, [&] { return done_ == parts_; });
    caller_blocked_ = false;
    job_ = nullptr;
    error = error_;
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace dtcrit
