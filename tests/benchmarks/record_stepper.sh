#!/usr/bin/env bash
# Regenerates results/benchmarks/stepper.md: builds bench_stepper and stepper_vs_lammps (Release,
# benchmarks on), runs the Google Benchmark table, then the side-by-side runs with LAMMPS: the same
# packing written as a LAMMPS data file, dtcrit and LAMMPS (1 rank, then 2 ranks under mpirun)
# alternating ROUNDS times, the best round of each recorded.
#   tests/benchmarks/record_stepper.sh            # build dir build-bench
#   BUILD_DIR=build-x MIN_TIME=3 ROUNDS=5 CASES="10000,1000 100000,100" LMP=/usr/bin/lmp tests/benchmarks/record_stepper.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
build="${BUILD_DIR:-build-bench}"
min_time="${MIN_TIME:-3}"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DDTCRIT_BUILD_BENCHMARKS=ON \
      -DDTCRIT_BUILD_TESTS=OFF -DDTCRIT_BUILD_STUDIES=OFF >/dev/null
cmake --build "$build" -j2 --target bench_stepper stepper_vs_lammps >/dev/null

rounds="${ROUNDS:-5}"
cases="${CASES:-10000,1000 100000,100}"
lmp="${LMP:-/usr/bin/lmp}"
raw=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$raw" "$raw.md" "$raw.side" "$work"' EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
"$build/tests/benchmarks/bench_stepper" --benchmark_min_time="$min_time" >"$raw" 2>&1
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# --- side by side with LAMMPS ---
have_lmp=0
if [ -x "$lmp" ]; then have_lmp=1; fi
have_mpi=0
if [ "$have_lmp" = 1 ] && command -v mpirun >/dev/null; then have_mpi=1; fi
# The best round of each: on a shared machine the other users only ever slow a run down.
best() { sort -g | tail -1; }
kv() { sed -n "s/.* $1 \([^ ]*\).*/\1/p" <<<" $2"; }
side_load_before=$(cut -d' ' -f1-3 /proc/loadavg)
side_rows=""
: >"$raw.side"
for case in $cases; do
  IFS=, read -r n steps <<<"$case"
  "$build/tests/benchmarks/stepper_vs_lammps" "$n" "$steps" --lammps-dir "$work"
  d_rates=""; d2_rates=""; l1_rates=""; l2_rates=""
  for ((r = 1; r <= rounds; r++)); do
    out=$("$build/tests/benchmarks/stepper_vs_lammps" "$n" "$steps")
    echo "dtcrit round $r: $out" >>"$raw.side"
    d_rates+="$(kv particle_steps_per_s "$out")"$'\n'
    out2=$("$build/tests/benchmarks/stepper_vs_lammps" "$n" "$steps" --threads 2)
    echo "dtcrit round $r: $out2" >>"$raw.side"
    d2_rates+="$(kv particle_steps_per_s "$out2")"$'\n'
    if [ "$(kv sum_x "$out") $(kv sum_v "$out")" != "$(kv sum_x "$out2") $(kv sum_v "$out2")" ]; then
      echo "dtcrit on 2 threads left the one-thread trajectory (N = $n)" >&2; exit 1
    fi
    d_cpp=$(kv contacts_per_particle "$out"); d_builds=$(kv neighbour_builds "$out")
    if [ "$have_lmp" = 1 ]; then
      for np in 1 2; do
        [ "$np" = 2 ] && [ "$have_mpi" = 0 ] && continue
        if [ "$np" = 1 ]; then
          lout=$(cd "$work" && "$lmp" -in "in.stepper_$n" -screen none -log "log.$np" >/dev/null 2>&1; cat "log.$np")
        else
          lout=$(cd "$work" && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
                 mpirun -np 2 "$lmp" -in "in.stepper_$n" -screen none -log "log.$np" >/dev/null 2>&1; cat "log.$np")
        fi
        loop=$(sed -n 's/^Loop time of \([0-9.e+-]*\) on.*/\1/p' <<<"$lout")
        builds=$(sed -n 's/^Neighbor list builds = \([0-9]*\).*/\1/p' <<<"$lout")
        read -r pairs walls < <(sed -n 's/^CONTACTS pairs \([0-9.]*\) walls \([0-9.]*\).*/\1 \2/p' <<<"$lout")
        if [ -z "$loop" ] || [ -z "$pairs" ]; then
          echo "LAMMPS ($np rank(s)) failed on N = $n; its log:" >&2; echo "$lout" | tail -20 >&2; exit 1
        fi
        rate=$(awk -v n="$n" -v s="$steps" -v t="$loop" 'BEGIN {printf "%.6g", n * s / t}')
        echo "LAMMPS $np rank(s) round $r: Loop time $loop s, particle_steps_per_s $rate, pair_contacts $pairs wall_contacts $walls, neighbour_builds $builds" >>"$raw.side"
        l_cpp=$(awk -v p="$pairs" -v w="$walls" -v n="$n" 'BEGIN {printf "%.6f", (p + w) / n}')
        if [ "$np" = 1 ]; then l1_rates+="$rate"$'\n'; l_builds=$builds; l1_cpp=$l_cpp; else l2_rates+="$rate"$'\n'; fi
        # Not the same simulation unless both codes end with the same contacts and rebuilds.
        if [ "$l_cpp" != "$d_cpp" ] || [ "$builds" != "$d_builds" ]; then
          echo "N = $n: LAMMPS ($np rank(s)) ends with $l_cpp contacts per particle and $builds neighbour builds," \
               "dtcrit with $d_cpp and $d_builds: not the same simulation" >&2
          exit 1
        fi
      done
    fi
  done
  d=$(printf "%s" "$d_rates" | best)
  d2=$(printf "%s" "$d2_rates" | best)
  fmtm() { awk -v x="$1" 'BEGIN {printf "%.2f M", x / 1e6}'; }
  if [ "$have_lmp" = 1 ]; then
    l1=$(printf "%s" "$l1_rates" | best)
    ratio1=$(awk -v a="$d" -v b="$l1" 'BEGIN {printf "%.2f", a / b}')
    if [ "$have_mpi" = 1 ]; then
      l2=$(printf "%s" "$l2_rates" | best)
      ratio2=$(awk -v a="$d2" -v b="$l2" 'BEGIN {printf "%.2f", a / b}')
    else l2="(no mpirun)"; ratio2="—"; fi
    side_rows+="| $n | $steps | $(fmtm "$d") | $(fmtm "$l1") | $ratio1 | $(fmtm "$d2") | $([ "$have_mpi" = 1 ] && fmtm "$l2" || echo "$l2") | $ratio2 | $d_cpp / $l1_cpp | $d_builds / $l_builds |"$'\n'
  else
    side_rows+="| $n | $steps | $(fmtm "$d") | (no lmp) | — | $(fmtm "$d2") | (no lmp) | — | $d_cpp / — | $d_builds / — |"$'\n'
  fi
done
side_load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# --- instructions per step (callgrind): what the code costs, whatever the load ---
# The wall-clock rows above depend on what else the shared machine runs; callgrind's instruction
# counts do not. dtcrit: VelocityVerlet::step (inclusive, the timed steps); LAMMPS: Verlet::run (the
# timed loop; setup excluded) and within it the pair style and the wall fix.
cg_n="${CG_N:-10000}"; cg_steps="${CG_STEPS:-100}"
cg_rows=""
if command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null; then
  # The first line naming the function (awk reads to the end: no SIGPIPE under pipefail).
  incl() { callgrind_annotate --inclusive=yes "$1" 2>/dev/null | awk -v f="$2" 'index($0, f) && !n++ {gsub(",", "", $1); print $1}'; }
  "$build/tests/benchmarks/stepper_vs_lammps" "$cg_n" "$cg_steps" --lammps-dir "$work"
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.dtcrit" \
    "$build/tests/benchmarks/stepper_vs_lammps" "$cg_n" "$cg_steps" >"$work/cg.dtcrit.out" 2>/dev/null
  d_step=$(incl "$work/cg.dtcrit" "VelocityVerlet::step(")
  d_force=$(incl "$work/cg.dtcrit" "ParticleSystem::force(")
  d_contacts=$(awk '{for (i = 1; i < NF; ++i) if ($i == "pair_contacts") p = $(i + 1); else if ($i == "wall_contacts") w = $(i + 1)} END {print p + w}' "$work/cg.dtcrit.out")
  cg_rows+="| dtcrit | \`VelocityVerlet::step\` $d_step | \`ParticleSystem::force\` $d_force (its $((cg_steps + 1)) calls: the start-up call too) | $(awk -v a="$d_step" -v s="$cg_steps" 'BEGIN {printf "%.3g", a / s}') | $(awk -v a="$d_step" -v s="$cg_steps" -v c="$d_contacts" 'BEGIN {printf "%.0f", a / s / c}') |"$'\n'
  if [ "$have_lmp" = 1 ]; then
    (cd "$work" && valgrind --tool=callgrind --callgrind-out-file="$work/cg.lammps" "$lmp" -in "in.stepper_$cg_n" \
       -screen none -log log.cg >/dev/null 2>&1)
    l_run=$(incl "$work/cg.lammps" "Verlet::run(")
    l_pair=$(incl "$work/cg.lammps" "PairGranHookeHistory::compute(")
    l_wall=$(incl "$work/cg.lammps" "FixWallGran::post_force(")
    read -r lp lw < <(sed -n 's/^CONTACTS pairs \([0-9.]*\) walls \([0-9.]*\).*/\1 \2/p' "$work/log.cg")
    cg_rows+="| LAMMPS 1 rank | \`Verlet::run\` $l_run | \`PairGranHookeHistory::compute\` $l_pair + \`FixWallGran::post_force\` $l_wall | $(awk -v a="$l_run" -v s="$cg_steps" 'BEGIN {printf "%.3g", a / s}') | $(awk -v a="$l_run" -v s="$cg_steps" -v p="$lp" -v w="$lw" 'BEGIN {printf "%.0f", a / s / (p + w)}') |"$'\n'
    cg_ratio=$(awk -v a="$l_run" -v b="$d_step" 'BEGIN {printf "%.2f", a / b}')
  fi
fi

{
  echo "# Reference DEM stepper: velocity Verlet throughput"
  echo
  echo "Generated by \`tests/benchmarks/record_stepper.sh\` (do not edit by hand)."
  echo
  echo "- Date: $(date -u +%Y-%m-%dT%H:%MZ); commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- lib/dtcrit/stepper tests/benchmarks || echo ' (stepper sources modified)')"
  echo "- Machine: $(lscpu | sed -n 's/^Model name:[[:space:]]*//p'), $(nproc) cores available; load average before / after: ${load_before} / ${load_after} (the machine is shared: figures are lower bounds)"
  echo "- Compiler: $(tests/benchmarks/compiler_of.sh "$build"), Release (-O3 -DNDEBUG); single thread in this table"
  echo "- Command: \`$build/tests/benchmarks/bench_stepper --benchmark_min_time=$min_time\`"
  echo
  echo "Case: 3D spheres on an FCC lattice (R = 1 mm +-0.2 %, every nominal neighbour overlapping by 1 % of"
  echo "the diameter, so all ~12 bulk contacts are closed), box of six walls, gravity, k_n = 1e4 N/m,"
  echo "k_t = 2/7 k_n, e = 0.5, mu = 0.5, h = t_c/50, skin 0.1 R. One timed iteration is one"
  echo "\`velocity_verlet\` step of the integrator registry (forces, tangential history, neighbour-list"
  echo "check and any rebuild). contacts_per_particle counts each pair once (coordination = 2x)."
  echo
  echo "| N | history | ms / step | particle-steps / s | contacts per particle | neighbour rebuilds |"
  echo "|---|---|---|---|---|---|"
  grep '^BM_VelocityVerlet' "$raw" | while read -r name time unit cpu cpu_unit iters rest; do
    n=$(sed -n 's/.*N:\([0-9]*\).*/\1/p' <<<"$name")
    mode=$(awk '{print $NF}' <<<"$rest")
    ips=$(sed -n 's/.*items_per_second=\([0-9.]*[kMG]*\)\/s.*/\1/p' <<<"$rest")
    cpp=$(sed -n 's/.*contacts_per_particle=\([0-9.]*\).*/\1/p' <<<"$rest")
    reb=$(sed -n 's/.*neighbour_rebuilds=\([0-9]*\).*/\1/p' <<<"$rest")
    echo "| $n | $mode | $cpu | $ips | $cpp | $reb over $iters steps |"
  done
  echo
  if grep -q "Library was built as DEBUG" "$raw"; then
    echo "Google Benchmark's \"Library was built as DEBUG\" warning below refers to the distribution's"
    echo "libbenchmark, not to dtcrit, which is built Release."
    echo
  fi
  echo "## Side by side with LAMMPS"
  echo
  if [ "$have_lmp" = 1 ]; then
    echo "LAMMPS: \`$lmp\` ($("$lmp" -h 2>/dev/null | sed -n 's/^Large-scale Atomic[^-]*- //p' | head -1)), 1 rank and \`mpirun -np 2\`."
  else
    echo "**LAMMPS not found** (\`$lmp\` is not executable): dtcrit alone is recorded."
  fi
  echo
  echo "- Load average before / after: ${side_load_before} / ${side_load_after}; $rounds rounds, dtcrit and LAMMPS alternating, the best round of each (other users only slow a run down; every round is in the raw output)"
  echo "- dtcrit: \`$build/tests/benchmarks/stepper_vs_lammps N STEPS [--threads 2]\` (wall time of the steps; the 2-thread run must"
  echo "  end on the one-thread state to the last bit — sum_x, sum_v below — or the script stops)"
  echo "- LAMMPS: \`stepper_vs_lammps N STEPS --lammps-dir DIR\` writes DIR/data.stepper_N and DIR/in.stepper_N (same radii,"
  echo "  masses, positions, velocities, walls as \`fix wall/gran hooke/history\`, \`gran/hooke/history\`, \`fix nve/sphere\`,"
  echo "  gravity, step, skin, half-skin check every step), run as \`lmp -in in.stepper_N\` and"
  echo "  \`mpirun -np 2 lmp -in in.stepper_N\`; its figure is N x STEPS / \"Loop time\" (setup excluded, as dtcrit's start-up)"
  echo "- Contacts per particle (pairs + wall contacts, / N) at the last step and neighbour-list builds during the run, dtcrit / LAMMPS 1 rank:"
  echo "  the same simulation in both codes"
  echo
  echo "| N | steps | dtcrit, 1 thread [particle-steps/s] | LAMMPS 1 rank | ratio | dtcrit, 2 threads | LAMMPS 2 ranks | ratio | contacts per particle | neighbour builds |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  printf "%s" "$side_rows"
  echo
  if [ -n "$cg_rows" ]; then
    echo "## Instructions per step (callgrind)"
    echo
    echo "N = $cg_n, $cg_steps steps, one thread / rank, counted by \`valgrind --tool=callgrind\` (independent of the"
    echo "machine's load): inclusive instruction counts of the timed loop and of the force computation."
    echo
    echo "| code | timed loop [instructions] | of which forces [instructions] | per step | per contact and step |"
    echo "|---|---|---|---|---|"
    printf "%s" "$cg_rows"
    echo
    [ -n "${cg_ratio:-}" ] && echo "LAMMPS / dtcrit instructions per step: **$cg_ratio** (the throughput ratio to expect on an idle core)." && echo
  fi
  echo "Raw output (side by side):"
  echo
  echo '```'
  cat "$raw.side"
  echo '```'
  echo
  echo "Raw output (Google Benchmark):"
  echo
  echo '```'
  cat "$raw"
  echo '```'
} >"$raw.md"
mkdir -p results/benchmarks
mv "$raw.md" results/benchmarks/stepper.md
echo "wrote results/benchmarks/stepper.md"
