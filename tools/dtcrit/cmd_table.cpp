// dtcrit table: the pair computation over a grid of inputs, as CSV, Markdown and a plot.
#include <atomic>
#include <chrono>
#include <cmath>
#include <iostream>
#include <thread>

#include "commands.hpp"
#include "pair_options.hpp"
#include "progress.hpp"

#include "dtcrit/analysis/pair_analysis.hpp"
#include "dtcrit/contact/linear_contact.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/io/output_file.hpp"
#include "dtcrit/io/plot.hpp"
#include "dtcrit/io/text_table.hpp"
#include "dtcrit/io/vary_axis.hpp"
#ifdef DTCRIT_WITH_MPI
#include "dtcrit/distributed/runtime.hpp"
#endif

namespace dtcrit::cli {

namespace {

const std::vector<std::string>& estimate_columns() {
  static const std::vector<std::string> names{
      "burns2016",       "two_over_omega_max", "sqrt_m_over_k",  "collision_time", "collision_time_over_50",
      "eq22_collinear",  "eq27_undamped",      "eq28_two_discs", "eq29_equal_discs", "rayleigh",
      "p_wave",          "hertz_collision_time"};
  return names;
}

}  // namespace

void add_table_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("table", "the pair computation over a grid of inputs (CSV, Markdown, PNG plot)");
  auto opts = std::make_shared<PairOptions>();
  auto vary = std::make_shared<std::vector<std::string>>();
  auto csv_path = std::make_shared<std::string>();
  auto md_path = std::make_shared<std::string>();
  auto plot_path = std::make_shared<std::string>();
  auto plot_quantities = std::make_shared<std::vector<std::string>>(std::vector<std::string>{"burns2016"});
  auto threads = std::make_shared<unsigned>(std::max(1u, std::thread::hardware_concurrency()));
  opts->add_to(*cmd);
  cmd->footer(std::string(damping_convention) +
              " The columns after the varied inputs are every row's effective inputs; the last column names the "
              "defaults applied.");
  cmd->add_option("--vary", *vary,
                  "an input to vary: KEY=a,b,c or KEY=START:STOP:N[:log]; KEY is a law input (kn, kt_ratio, cn, "
                  "restitution, ...) or body1.KEY / body2.KEY (e.g. body1.e); repeatable, the grid is their product")
      ->required();
  cmd->add_option("--csv", *csv_path, "write the table as CSV to this file (default: CSV on the terminal)");
  cmd->add_option("--markdown", *md_path, "write the table as Markdown to this file");
  cmd->add_option("--plot", *plot_path, "draw the step against the first varied input to this PNG or SVG file, "
                                        "one curve per value of the second");
  cmd->add_option("--plot-quantity", *plot_quantities,
                  "columns to plot: an estimate name or an integrator spec (repeatable)")
      ->capture_default_str();
  cmd->add_option("--threads", *threads, "worker threads")->capture_default_str();
  cmd->callback([=] {
    // Every output is checked before the grid is computed, and all are written together at the end.
    OutputFiles files;
    files.declare("--csv", *csv_path);
    files.declare("--markdown", *md_path);
    files.declare("--plot", *plot_path, OutputFormat::plot);
    std::vector<VaryAxis> axes;
    for (const auto& v : *vary) axes.push_back(parse_vary_axis(v));
    const std::size_t total = grid_size(axes);
    const PairInput base = opts->input();
    const auto material = opts->material();
    const auto specs = expand_integrator_specs(opts->integrators);
    // Validate every axis key once before the long run; which defaults apply depends only on the
    // keys given, the same for every row.
    std::string defaults;
    {
      PairInput probe = base;
      for (const auto& a : axes) probe.set(a.key, a.values.front());
      for (const auto& d : applied_defaults(probe)) defaults += (defaults.empty() ? "" : "; ") + d;
    }
    const std::vector<std::string> input_names{"body1.m", "body1.I", "body1.rt", "body1.rn", "body2.m", "body2.I",
                                               "body2.rt", "body2.rn", "kn", "kt", "cn", "ct", "gamma_n", "gamma_t"};

    const auto& est_names = estimate_columns();
    if (!plot_path->empty())
      for (const auto& q : *plot_quantities)
        if (std::find(est_names.begin(), est_names.end(), q) == est_names.end() &&
            std::find(specs.begin(), specs.end(), q) == specs.end() && q != "omega_max" &&
            std::none_of(axes.begin(), axes.end(), [&](const VaryAxis& a) { return a.key == q; }))
          fail(fmt::format("--plot-quantity '{}' is not a column of this table (an estimate or a --integrator spec)", q));
    const std::size_t n_in = input_names.size(), first_out = axes.size() + n_in;  // omega_max's column
    const std::size_t n_cols = first_out + 1 + est_names.size() + specs.size();
    std::vector<double> data(total * n_cols, std::numeric_limits<double>::quiet_NaN());
    std::atomic<std::size_t> done{0};
    std::exception_ptr error;
    std::mutex error_mutex;

    auto work = [&](std::size_t begin, std::size_t end) {
      try {
        for (std::size_t row = begin; row < end; ++row) {
          PairInput in = base;
          double* out = &data[row * n_cols];
          std::size_t rest = row;
          for (std::size_t a = 0; a < axes.size(); ++a) {  // first axis varies fastest
            const double v = axes[a].values[rest % axes[a].values.size()];
            rest /= axes[a].values.size();
            in.set(axes[a].key, v);
            out[a] = v;
          }
          const auto report = analyse_pair("", build_model(in), material, specs);
          const auto& m = report.model;
          const double m_eff = m.translational_effective_mass();
          const double inputs[] = {m.body1().mass, m.body1().inertia, m.body1().arm[0], m.body1().arm[1],
                                   m.body2().mass, m.body2().inertia, m.body2().arm[0], m.body2().arm[1],
                                   m.law().kn,     m.law().kt,        m.law().cn,       m.law().ct,
                                   lammps_gamma_from_dashpot(m.law().cn, m_eff),
                                   lammps_gamma_from_dashpot(m.law().ct, m_eff)};
          std::copy(std::begin(inputs), std::end(inputs), out + axes.size());
          out[first_out] = m.omega_max();
          for (const auto& e : report.estimates) {
            const auto it = std::find(est_names.begin(), est_names.end(), e.name);
            if (it != est_names.end()) out[first_out + 1 + (it - est_names.begin())] = e.seconds;
          }
          for (std::size_t i = 0; i < specs.size(); ++i)
            out[first_out + 1 + est_names.size() + i] = report.integrators[i].h_crit;
          done.fetch_add(1, std::memory_order_relaxed);
        }
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
      }
    };
    // Under mpirun (the distributed build) each rank takes a contiguous block of the rows and rank 0
    // gathers them: the same numbers in the same order as one process, written once, by rank 0.
#ifdef DTCRIT_WITH_MPI
    const distributed::Block block = distributed::my_block(total);
    const bool speaks = distributed::rank() == 0;
#else
    const struct { std::size_t begin, end; } block{0, total};
    const bool speaks = true;
#endif
    const std::size_t mine = block.end - block.begin;
    auto compute = [&] {
      const unsigned n_threads = std::max(1u, std::min<unsigned>(*threads, static_cast<unsigned>(mine)));
      {
        std::vector<std::jthread> pool;
        for (unsigned t = 0; t < n_threads; ++t)
          pool.emplace_back(work, block.begin + mine * t / n_threads, block.begin + mine * (t + 1) / n_threads);
        ProgressBar bar("configurations");
        if (speaks && bar.enabled() && mine >= 1000) {
          while (done.load() < mine && !error) {
            bar.update(done.load(), mine);
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
          }
          bar.finish();
        }
      }
      if (error) std::rethrow_exception(error);
    };
#ifdef DTCRIT_WITH_MPI
    distributed::collectively(compute);  // an error on one rank ends every rank with its message
    distributed::gather_blocks(data, total, n_cols);
    if (!speaks) return;
#else
    compute();
#endif

    // Columns that no configuration filled (estimates that never apply) are left out.
    std::vector<std::string> header;
    for (const auto& a : axes) header.push_back(a.key);
    for (const auto& n : input_names) header.push_back(n);
    header.push_back("omega_max");
    for (const auto& n : est_names) header.push_back(n);
    for (const auto& s : specs) header.push_back("h_crit:" + s);
    std::vector<std::size_t> keep;
    for (std::size_t c = 0; c < n_cols; ++c) {
      // An effective input that is also a varied input has the same values: one column.
      if (c >= axes.size() && c < first_out &&
          std::any_of(axes.begin(), axes.end(), [&](const VaryAxis& a) { return a.key == header[c]; }))
        continue;
      bool any = c < first_out + 1 + est_names.size() ? false : true;  // integrators: keep "unconditional" columns
      for (std::size_t r = 0; r < total && !any; ++r) any = !std::isnan(data[r * n_cols + c]);
      if (any) keep.push_back(c);
    }
    // Rows are streamed from the numbers (a million rows must not become a million string vectors).
    auto write_table = [&](std::ostream& out, bool markdown) {
      const char* sep = markdown ? " | " : ",";
      if (markdown) out << "| ";
      for (std::size_t i = 0; i < keep.size(); ++i) out << (i ? sep : "") << header[keep[i]];
      out << sep << "defaults_applied" << (markdown ? " |\n|" : "\n");
      if (markdown)
        for (std::size_t i = 0; i < keep.size(); ++i) out << (i < axes.size() ? " --- |" : " ---: |");
      if (markdown) out << " --- |\n";
      const std::string defaults_cell = markdown ? defaults : "\"" + defaults + "\"";
      std::string line;
      for (std::size_t r = 0; r < total; ++r) {
        line.clear();
        if (markdown) line += "| ";
        for (std::size_t i = 0; i < keep.size(); ++i) {
          if (i) line += sep;
          line += format_exact(data[r * n_cols + keep[i]]);
        }
        line += sep + defaults_cell + (markdown ? " |\n" : "\n");
        out << line;
      }
    };
    // CSV to the file given, or to the terminal when no other output was asked for.
    const bool csv_to_terminal = csv_path->empty() && md_path->empty() && plot_path->empty();
    if (!csv_path->empty()) files.write(*csv_path, [&](std::ostream& out) { write_table(out, false); });
    if (!md_path->empty()) files.write(*md_path, [&](std::ostream& out) { write_table(out, true); });

    if (!plot_path->empty()) {
      PlotSpec plot{"Critical time-step against " + axes.front().key, axes.front().key, "time-step [s]", false, false, {}};
      const std::size_t n0 = axes.front().values.size();
      const std::size_t n1 = axes.size() > 1 ? axes[1].values.size() : 1;
      for (const auto& q : *plot_quantities) {
        const auto it = std::find(header.begin(), header.end(), q);
        const auto it2 = std::find(header.begin(), header.end(), "h_crit:" + q);
        if (it == header.end() && it2 == header.end())
          fail(fmt::format("--plot-quantity '{}' is not a column of this table", q));
        const std::size_t col = (it != header.end() ? it : it2) - header.begin();
        for (std::size_t j = 0; j < n1; ++j) {
          PlotSeries s{q + (axes.size() > 1 ? fmt::format(", {} = {:g}", axes[1].key, axes[1].values[j]) : ""), {}, {},
                       n0 <= 30};
          distinct_style(s, plot.series.size());
          for (std::size_t i = 0; i < n0; ++i) {  // other axes at their first value
            const std::size_t row = i + n0 * j;
            s.x.push_back(data[row * n_cols]);
            s.y.push_back(data[row * n_cols + col]);
          }
          plot.series.push_back(std::move(s));
        }
      }
      files.plot(*plot_path, plot);
    }
    files.commit();
    if (csv_to_terminal) write_table(std::cout, false);
  });
}

}  // namespace dtcrit::cli
