// Links against the installed dtcrit package and runs one computation through it.
#include <cstdio>

#include "dtcrit/dynamics/linear_system.hpp"

int main() {
  auto sys = dtcrit::scalar_oscillator(2.0, 0.0);
  dtcrit::Vector f;
  sys.force(0.0, dtcrit::Vector::Ones(1), dtcrit::Vector::Zero(1), f);
  std::printf("force of a unit displacement on k = 4: %g\n", f[0]);
  return f[0] == -4.0 ? 0 : 1;
}
