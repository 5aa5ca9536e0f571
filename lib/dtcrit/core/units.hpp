#pragma once
// The unit system a packing's numbers are in. Every analysis is unit-free (K M^-1 has units of
// 1/time^2 in any consistent system), so the units only name what is printed: a LAMMPS script in
// `units lj` is answered in tau, one in `units cgs` in seconds with grams and centimetres.
#include <optional>
#include <string>
#include <string_view>

namespace dtcrit {

struct UnitSystem {
  std::string name = "si";  // LAMMPS' keyword: si, cgs, micro, nano, lj
  std::string time = "s", mass = "kg", length = "m", force = "N", energy = "J";
  double lammps_default_timestep = 1e-8;  // update.cpp's default dt for these units [time]

  std::string stiffness() const { return force + "/" + length; }
  std::string damping() const { return force + " " + time + "/" + length; }
  std::string density() const { return mass + "/" + length + "^3"; }
  std::string inertia() const { return mass + " " + length + "^2"; }
  std::string rate() const { return "1/" + time; }
  // "si: kg, m, s, N/m, N s/m"
  std::string summary() const;
};

const UnitSystem& si_units();
// LAMMPS' consistent mechanical unit systems (mass, length, time and force with force = mass x
// length / time^2): si, cgs, micro, nano and lj. real, metal and electron are not: their force
// unit needs LAMMPS' conversion factor ftm2v, and nullopt is returned for them.
std::optional<UnitSystem> lammps_unit_system(std::string_view name);

}  // namespace dtcrit
