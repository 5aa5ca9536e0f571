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
