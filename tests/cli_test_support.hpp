#pragma once
// Runs the dtcrit command (DTCRIT_CLI, set by tests/CMakeLists.txt) for the CLI tests: exit status,
// output and wall time; in `folder` when one is given (for outputs written to the working folder).
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <string>

#include <catch2/catch.hpp>

struct CliRun {
  int status = 0;
  std::string out;  // stdout, and stderr too unless with_stderr is false
  double seconds = 0.0;
};

inline CliRun run_cli(const std::string& args, bool with_stderr = true, const std::string& folder = "") {
  const std::string cmd = (folder.empty() ? "" : "cd '" + folder + "' && ") + std::string(DTCRIT_CLI) + " " + args +
                          (with_stderr ? " 2>&1" : " 2>/dev/null");
  const auto t0 = std::chrono::steady_clock::now();
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  CliRun r;
  char buf[4096];
  while (std::size_t n = fread(buf, 1, sizeof buf, pipe)) r.out.append(buf, n);
  r.status = WEXITSTATUS(pclose(pipe));
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}
