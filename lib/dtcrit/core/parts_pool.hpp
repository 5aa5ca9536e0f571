#pragma once
// A persistent pool for fork-join work split into a fixed number of parts: run(parts, f) calls f(0),
// ..., f(parts - 1) once each, on the calling thread and the pool's workers, whichever claims a part
// first, and returns when all are done. Which thread runs a part never changes what it computes, so
// a result assembled from the parts in their order is the same whatever the scheduling. On a busy
// machine a worker that is not scheduled in time leaves its part to the caller instead of making it
// wait (a thread spawned and joined per call, as before, made each call wait for the slowest start).
// A worker that has finished a job, and the caller that waits for the parts of one, spin for a
// little while (kSpin) before they block: the stepper calls run() three times per step, about once
// every 0.2 ms at 10^4 spheres on two threads, and a futex sleep and wake-up each time cost it about
// 6 % of its time (tests/benchmarks/record_stepper.sh).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace dtcrit {

// The thread count of the packing analysis unless told otherwise: min(2, the hardware's threads).
inline int default_threads() { return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 2u)); }

class PartsPool {
 public:
  explicit PartsPool(int workers);
  ~PartsPool();
  PartsPool(const PartsPool&) = delete;
  PartsPool& operator=(const PartsPool&) = delete;
  int workers() const { return static_cast<int>(threads_.size()); }
  // One caller at a time. Rethrows the first exception of a part, after every part has finished.
  void run(int parts, const std::function<void(int)>& part);

 private:
  void work();
  // Claims and runs parts of job `generation` until none is left (or a newer job has started).
  void claim(std::uint32_t generation, const std::function<void(int)>* job, int parts);

  // How long a worker spins for the next job, and the caller for the last part, before blocking.
  static constexpr std::chrono::microseconds kSpin{200};

  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  std::vector<std::thread> threads_;
  // The job (under mutex_) and its next unclaimed part: generation << 32 | part, so that a worker
  // woken late for an earlier job cannot claim a part of the current one.
  const std::function<void(int)>* job_ = nullptr;
  int parts_ = 0;
  std::atomic<int> done_{0};                  // written under mutex_, read by the spinning caller
  std::atomic<std::uint32_t> generation_{0};  // written under mutex_, read by spinning workers
  int sleepers_ = 0;                          // workers blocked on wake_ (under mutex_)
  bool caller_blocked_ = false;               // run() blocked on finished_ (under mutex_)
  bool stop_ = false;
  std::exception_ptr error_;
  std::atomic<std::uint64_t> next_{0};
};

// The pool of an object that may be copied (a packing's GlobalSystem, the stepper's ParticleSystem):
// started on first use, restarted when the thread count changes; a copy starts without threads of
// its own, and an assignment keeps the target's: a pool is never shared between objects.
class OwnedPartsPool {
 public:
  OwnedPartsPool() = default;
  OwnedPartsPool(const OwnedPartsPool&) {}
  OwnedPartsPool& operator=(const OwnedPartsPool&) { return *this; }
  OwnedPartsPool(OwnedPartsPool&&) noexcept = default;
  OwnedPartsPool& operator=(OwnedPartsPool&&) noexcept = default;
  // The pool with `workers` threads besides the caller's.
  PartsPool& with_workers(int workers) {
    if (!pool_ || pool_->workers() != workers) pool_ = std::make_unique<PartsPool>(workers);
    return *pool_;
  }

 private:
  std::unique_ptr<PartsPool> pool_;
};

}  // namespace dtcrit
