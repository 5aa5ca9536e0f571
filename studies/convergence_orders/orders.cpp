// Convergence-order table (issue 7, item 5): every registry integrator (default_integrator_specs())
// on every sweep case, with the fitted orders of position, velocity (at the integrator's own time
// level) and energy, as measured by the sweep engine (lib/dtcrit/sweep: aligned h grid, analytic
// solution or a fine reference run, onset-phase averaging, least-squares order over the range
// where consecutive slopes agree).
//
//   study_convergence_orders [--quick] [--out DIR]
//
// writes DIR/orders.csv (tidy: case, integrator, declared orders, fitted orders, h range of the fit)
// and DIR/orders.md (one table per case). box-settle is listed as "chaotic, no order": its
// macroscopic averages do not converge with a rate in h (trajectories of a granular packing
// diverge exponentially), see lib/dtcrit/sweep/README.md. Stability bisection and the
// accuracy-limited step are switched off: this study is about orders only.
//
// --quick: bonded-pair and head-on (the cases' quick versions) for four integrators, and checks
// that velocity Verlet is second order and RK4 fourth order on the undamped bonded pair. The full
// run checks the same numbers on the full grid.
#include <cmath>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/io/output_file.hpp"
#include "dtcrit/sweep/sweep.hpp"

#include "../study_support.hpp"

using namespace dtcrit;
using namespace dtcrit::sweep;

namespace {

using study::num;
using study::order_of;

}  // namespace

int main(int argc, char** argv) {
  const auto args = study::parse_args(argc, argv, "study_convergence_orders", "results/convergence_orders");
  if (!args) return 2;
  const bool quick = args->quick;
  const std::string dir = args->dir;
  std::filesystem::create_directories(dir);

  const std::vector<std::string> cases =
      quick ? std::vector<std::string>{"bonded-pair", "head-on"} : case_names();
  const std::vector<std::string> specs =
      quick ? std::vector<std::string>{"velocity_verlet", "rk4", "variational_1", "variational_2"}
            : default_integrator_specs();

  std::ostringstream csv, md;
  csv << "case,tangential,integrator,declared_order,declared_order_damped,order_position,order_velocity,"
         "order_energy,h_hi_position,h_lo_position,note\n";
  md << "# Convergence orders: every integrator x every sweep case\n\n"
     << "Fitted orders (position / velocity / energy) from `study_convergence_orders"
     << (quick ? " --quick" : "") << "` (studies/convergence_orders). Velocity at the integrator's own"
     << " time level; `-`: no usable fit (errors at round-off or not converging). Traditional tangential"
     << " update (the cases' default).\n\n";

  int failures = 0;
  double vv_bp = std::nan(""), rk4_bp = std::nan("");
  for (const auto& name : cases) {
    if (name == "box-settle") {
      for (const auto& spec : specs)
        csv << fmt::format("{},traditional,{},,,,,,,,chaotic: no order\n", name, spec);
      md << "## box-settle\n\nChaotic, no order: a settling packing's trajectories diverge exponentially with any"
            " perturbation, so differences between step sizes do not shrink with a rate in h (see"
            " lib/dtcrit/sweep/README.md and results/sweeps/box-settle.txt). Not run here.\n\n";
      continue;
    }
    CaseOptions co;
    co.quick = quick;
    const auto c = make_case(name, co);
    SweepOptions so;
    so.integrators = specs;
    so.stability = 0;
    so.accuracy = false;
    std::cerr << "case " << name << " ..." << std::endl;
    const SweepResult r = run_sweep(*c, "traditional", so);
    md << "## " << name << "\n\n" << c->description() << "; reference: " << r.reference << "; " << r.levels
       << " levels from h0 = " << fmt::format("{:.4g}", r.h0 / r.time_scale) << " " << r.time_scale_name << ", "
       << r.phases << " onset phase(s).\n\n"
       << "| integrator | declared | position | velocity | energy |\n|---|---|---|---|---|\n";
    for (const auto& s : r.integrators) {
      const double p = order_of(s, "position"), v = order_of(s, "velocity"), e = order_of(s, "energy");
      const auto it = s.order.find("position");
      const double hh = it == s.order.end() ? std::nan("") : it->second.h_hi;
      const double hl = it == s.order.end() ? std::nan("") : it->second.h_lo;
      csv << fmt::format("{},traditional,{},{},{},{},{},{},{:.6g},{:.6g},\n", name, s.spec, s.declared_order,
                         s.declared_order_damped, p, v, e, hh, hl);
      md << fmt::format("| {} | {}/{} | {} | {} | {} |\n", s.spec, s.declared_order, s.declared_order_damped, num(p),
                        num(v), num(e));
      if (name == "bonded-pair" && s.spec == "velocity_verlet") vv_bp = p;
      if (name == "bonded-pair" && s.spec == "rk4") rk4_bp = p;
    }
    md << "\n";
  }
  study::write_text(dir, "orders.csv", csv.str());
  study::write_text(dir, "orders.md", md.str());

  // Key numbers: undamped bonded pair, analytic reference.
  auto check = [&](const char* what, double value, double lo, double hi) {
    const bool ok = std::isfinite(value) && value >= lo && value <= hi;
    std::cout << fmt::format("{} {} = {:.3f} (expected in [{}, {}])\n", ok ? "ok  " : "FAIL", what, value, lo, hi);
    failures += ok ? 0 : 1;
  };
  check("bonded-pair velocity_verlet position order", vv_bp, 1.8, 2.2);
  check("bonded-pair rk4 position order", rk4_bp, 3.5, 4.5);
  std::cout << "wrote " << dir << "/orders.csv, orders.md\n";
  return failures == 0 ? 0 : 1;
}
