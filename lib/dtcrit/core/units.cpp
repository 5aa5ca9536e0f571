#include "dtcrit/core/units.hpp"

namespace dtcrit {

std::string UnitSystem::summary() const {
  return name + ": " + mass + ", " + length + ", " + time + ", " + stiffness() + ", " + damping();
}

const UnitSystem& si_units() {
  static const UnitSystem si{};
  return si;
}

std::optional<UnitSystem> lammps_unit_system(std::string_view name) {
  // Names and default time steps as LAMMPS 29 Sep 2021 sets them (update.cpp, set_units; units.html).
  if (name == "si") return si_units();
  if (name == "cgs") return UnitSystem{"cgs", "s", "g", "cm", "dyne", "erg", 1e-8};
  if (name == "micro") return UnitSystem{"micro", "us", "pg", "um", "pg um/us^2", "pg um^2/us^2", 2.0};
  if (name == "nano") return UnitSystem{"nano", "ns", "ag", "nm", "ag nm/ns^2", "ag nm^2/ns^2", 0.00045};
  if (name == "lj") return UnitSystem{"lj", "tau", "m", "sigma", "epsilon/sigma", "epsilon", 0.005};
  return std::nullopt;
}

}  // namespace dtcrit
