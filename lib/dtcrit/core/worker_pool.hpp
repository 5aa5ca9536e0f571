#pragma once
// A fixed set of threads that runs one parallel loop at a time. The reference stepper calls one per
// force() (every step, a few milliseconds of work): starting threads per call cost as much as the
// work they shared, so the threads are started once and wait between loops.
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace dtcrit {

class WorkerPool {
 public:
  // threads >= 1: the calling thread plus threads - 1 workers.
  explicit WorkerPool(int threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }
  // task(r) for r = 0, ..., tasks - 1, each exactly once, spread over the threads (the caller takes
  // its share); returns when all have finished. Which thread runs which r is not fixed: a task must
  // write only to its own outputs. The first exception a task throws is rethrown here, after the
  // loop ends. Not reentrant: a task must not call run() on the same pool.
  void run(int tasks, const std::function<void(int)>& task);

 private:
  void work_on_current_loop(std::unique_lock<std::mutex>& lock);
  void worker();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_, finished_;
  const std::function<void(int)>* task_ = nullptr;
  int tasks_ = 0, next_ = 0, running_ = 0;
  std::uint64_t generation_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

}  // namespace dtcrit
