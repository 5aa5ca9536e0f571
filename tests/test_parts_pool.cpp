// core/parts_pool.hpp as the stepper's force() uses it (tests/test_packing_operator.cpp has the
// operator's side): every task runs exactly once per loop, on more than one thread when the pool has
// workers, loop after loop on the same threads; a throwing task ends the loop with its exception.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "dtcrit/core/parts_pool.hpp"

using namespace dtcrit;

TEST_CASE("PartsPool runs every task once per loop, loop after loop", "[parts_pool]") {
  for (int threads : {1, 2, 3}) {
    PartsPool pool(threads - 1);
    CHECK(pool.workers() == threads - 1);
    for (int loop = 0; loop < 200; ++loop) {
      const int tasks = 1 + loop % 7;
      std::vector<int> hits(static_cast<std::size_t>(tasks), 0);
      pool.run(tasks, [&](int r) { ++hits[static_cast<std::size_t>(r)]; });
      for (int r = 0; r < tasks; ++r) REQUIRE(hits[static_cast<std::size_t>(r)] == 1);
    }
  }
}

TEST_CASE("PartsPool hands jobs to spinning and to sleeping workers alike", "[parts_pool]") {
  // Workers spin for a while after a job, then sleep: jobs back to back reach spinning workers, jobs
  // after a pause sleeping ones, and parts that outlast the caller's spin make it sleep. Every part
  // runs once either way, both threads take part, and the pool ends while its workers spin or sleep.
  for (const int pause_us : {0, 50, 1000}) {
    CAPTURE(pause_us);
    PartsPool pool(1);
    std::set<std::thread::id> ids;
    std::mutex m;
    for (int loop = 0; loop < 60; ++loop) {
      std::vector<int> hits(2, 0);
      std::atomic<int> started{0};
      pool.run(2, [&](int r) {
        {
          std::lock_guard lock(m);
          ids.insert(std::this_thread::get_id());
        }
        ++hits[static_cast<std::size_t>(r)];
        ++started;
        // Each part waits (up to 20 s) for the other to start: both threads must take one.
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (started.load() < 2 && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
        if (loop % 10 == 0) std::this_thread::sleep_for(std::chrono::microseconds(1000));  // beyond the caller's spin
      });
      REQUIRE(hits == std::vector<int>{1, 1});
      REQUIRE(started.load() == 2);
      if (pause_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(pause_us));
    }
    CHECK(ids.size() == 2);
  }
}

TEST_CASE("PartsPool spreads the tasks of a loop over its threads", "[parts_pool]") {
  PartsPool pool(1);
  // Two tasks that each wait for the other to start can only both finish on two threads.
  std::atomic<int> started{0};
  std::mutex m;
  std::set<std::thread::id> ids;
  pool.run(2, [&](int) {
    {
      std::lock_guard lock(m);
      ids.insert(std::this_thread::get_id());
    }
    ++started;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (started.load() < 2 && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
  });
  CHECK(started.load() == 2);
  CHECK(ids.size() == 2);
}

TEST_CASE("PartsPool rethrows a task's exception after the loop and stays usable", "[parts_pool]") {
  PartsPool pool(1);
  std::atomic<int> ran{0};
  CHECK_THROWS_WITH(pool.run(8,
                             [&](int r) {
                               ++ran;
                               if (r == 3) throw std::runtime_error("task 3 failed");
                             }),
                    "task 3 failed");
  CHECK(ran.load() == 8);  // the other tasks still ran: the loop ends whole
  std::vector<int> hits(5, 0);
  pool.run(5, [&](int r) { hits[static_cast<std::size_t>(r)] = r + 1; });
  CHECK(hits == std::vector<int>{1, 2, 3, 4, 5});
}
