#!/usr/bin/env bash
# Regenerates results/benchmarks/packing_speedup.md: this checkout's `dtcrit packing` against an older
# build, side by side on one machine. Builds bench_packing and dtcrit here (Release, build-bench), then
#  1. runs each bench_packing case ROUNDS times, old and new alternated (the order swapped every
#     round, so that a change in the machine's load hits both), each in its own process under
#     /usr/bin/time (peak resident memory);
#  2. compares every number of `dtcrit packing --json` (omega_max, every integrator's limit, every
#     bound) between the two builds on the n = 29 cases and on smaller packings that take the other
#     paths of the operator (walls, one thread, 2D, no rotation, geometric stiffness, rigid bodies).
#
#   OLD_BUILD=/tmp/packing-old/main/build-bench tests/benchmarks/record_packing_speedup.sh
#   OLD_BUILD=... CASES="29,1,0,0" ROUNDS=1 AGREE=0 tests/benchmarks/record_packing_speedup.sh
#   OLD_BUILD=... CASES="63,1,0,0" ROUNDS=1 AGREE=0 OUT=results/benchmarks/packing_speedup_1e6.md ...
# OLD_BUILD: a Release build (-DDTCRIT_BUILD_BENCHMARKS=ON) of the older commit, with
# tests/benchmarks/bench_packing and dtcrit in it, e.g. made by
#   git worktree add /tmp/packing-old/main ce09910
#   cmake -S /tmp/packing-old/main -B /tmp/packing-old/main/build-bench -DCMAKE_BUILD_TYPE=Release \
#         -DDTCRIT_BUILD_BENCHMARKS=ON -DDTCRIT_BUILD_TESTS=OFF -DDTCRIT_BUILD_STUDIES=OFF
#   cmake --build /tmp/packing-old/main/build-bench -j2 --target bench_packing dtcrit_cli
set -euo pipefail
cd "$(dirname "$0")/../.."
old="${OLD_BUILD:?set OLD_BUILD to the older Release build directory}"
build="${BUILD_DIR:-build-bench}"
rounds="${ROUNDS:-3}"
# "n,poly,spectra,damped" per case (bench_packing.cpp): 97 556 spheres, polydisperse, undamped and damped.
cases="${CASES:-29,1,0,0 29,1,0,1}"
agree="${AGREE:-1}"
out_md="${OUT:-results/benchmarks/packing_speedup.md}"
old_commit=$(git -C "$old/.." rev-parse --short HEAD 2>/dev/null || echo "unknown")
for f in "$old/tests/benchmarks/bench_packing" "$old/dtcrit"; do
  [[ -x $f ]] || { echo "missing $f" >&2; exit 1; }
done
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DDTCRIT_BUILD_BENCHMARKS=ON \
      -DDTCRIT_BUILD_TESTS=OFF -DDTCRIT_BUILD_STUDIES=OFF >/dev/null
nice cmake --build "$build" -j2 --target bench_packing dtcrit_cli >/dev/null

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
raw="$tmp/raw.txt"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
rows=""
# One bench_packing run: appends a table row and "case build wall peak_mb" to $tmp/times.
run_case() {
  local which=$1 dir=$2 n=$3 poly=$4 spectra=$5 damped=$6 round=$7
  local filter="BM_Packing/n:$n/poly:$poly/spectra:$spectra/damped:$damped/"
  local out
  out=$( { /usr/bin/time -f "PEAK_KB=%M WALL_S=%e USER_S=%U" "$dir/tests/benchmarks/bench_packing" \
           --benchmark_filter="$filter" ; } 2>&1 )
  echo "== round $round, $which: $dir/tests/benchmarks/bench_packing --benchmark_filter='$filter'" >>"$raw"
  echo "$out" >>"$raw"
  local line wall peak user label
  line=$(grep '^BM_Packing' <<<"$out")
  field() { sed -n "s/.*$1=\([0-9.]*[kMGmu]*\).*/\1/p" <<<"$line"; }
  wall=$(sed -n 's/.*WALL_S=\([0-9.]*\).*/\1/p' <<<"$out")
  user=$(sed -n 's/.*USER_S=\([0-9.]*\).*/\1/p' <<<"$out")
  peak=$(( $(sed -n 's/.*PEAK_KB=\([0-9]*\).*/\1/p' <<<"$out") / 1024 ))
  label=$(sed -n 's/.* \(perfect\|polydisperse\)\(+damped\)\? solver=[a-z]* omega_max=\([0-9.e+]*\).*/\1\2 \3/p' <<<"$line")
  rows+="| $round | $n,$poly,$spectra,$damped | $which | ${wall} s | ${user} s | $(field t_eigen_s) | $(field lanczos_ops) | $(field t_limits_s) | $peak MB | $label |"$'\n'
  echo "$n,$poly,$spectra,$damped $which $wall $peak" >>"$tmp/times"
}
for ((r = 1; r <= rounds; ++r)); do
  for case in $cases; do
    IFS=, read -r n poly spectra damped <<<"$case"
    if ((r % 2)); then order="old new"; else order="new old"; fi
    for which in $order; do
      dir=$build
      [[ $which == old ]] && dir=$old
      run_case "$which" "$dir" "$n" "$poly" "$spectra" "$damped" "$r"
    done
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# Medians over the rounds and the ratios old / new.
summary=$(python3 - "$tmp/times" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    case, which, wall, peak = line.split()
    runs.setdefault(case, {}).setdefault(which, []).append((float(wall), int(peak)))
for case, r in runs.items():
    ow, nw = statistics.median(w for w, _ in r["old"]), statistics.median(w for w, _ in r["new"])
    op, np_ = statistics.median(p for _, p in r["old"]), statistics.median(p for _, p in r["new"])
    print(f"| {case} | {len(r['old'])} | {ow:.2f} s | {nw:.2f} s | {ow / nw:.2f}x | {op:.0f} MB | {np_:.0f} MB |")
EOF
)

# Agreement of every number of the answer.
agreement=""
if [[ $agree == 1 ]]; then
  python3 tests/benchmarks/make_network_lattice.py 30 "$tmp/net30.json" >/dev/null
  common="--compression 2e-3 --radius-spread 1e-3 --kn 1e5 --kt 3e4"
  while IFS='|' read -r name args; do
    [[ -z $name ]] && continue
    args=${args//NET30/$tmp/net30.json}
    # shellcheck disable=SC2086
    "$old/dtcrit" packing $args --json >"$tmp/old.json"
    # shellcheck disable=SC2086
    "$build/dtcrit" packing $args --json >"$tmp/new.json"
    result=$(python3 tests/benchmarks/compare_packing_json.py "$tmp/old.json" "$tmp/new.json" || true)
    agreement+="| $name | \`${args//$tmp\//}\` | $result |"$'\n'
  done <<EOF
fcc n 29, polydisperse, undamped|--lattice fcc --n 29 $common
fcc n 29, polydisperse, damped|--lattice fcc --n 29 $common --gamma-n 2000 --gamma-t 1000
fcc n 14, perfect, undamped|--lattice fcc --n 14 --compression 2e-3 --kn 1e5 --kt 3e4
fcc n 8, damped (one thread: < 50000 contacts)|--lattice fcc --n 8 $common --gamma-n 2000
sc n 30 boxed in by walls, damped|--lattice sc --n 30 --periodic none --box-walls $common --gamma-n 2000
bcc n 20, damped|--lattice bcc --n 20 $common --gamma-n 2000
hex n 150 (2D discs), damped|--lattice hex --n 150 $common --gamma-n 2000
fcc n 14, no rotation, damped|--lattice fcc --n 14 $common --gamma-n 2000 --no-rotation
fcc n 14, geometric stiffness, damped|--lattice fcc --n 14 $common --gamma-n 2000 --geometric-stiffness
27 000 rigid bodies (make_network_lattice.py 30)|--bodies NET30
EOF
fi

{
  echo "# dtcrit packing: this build against an older one, side by side"
  echo
  echo "Generated by \`tests/benchmarks/record_packing_speedup.sh\` (do not edit by hand)."
  echo
  echo "- Date: $(date -u +%Y-%m-%dT%H:%MZ); new: commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- lib tests/benchmarks ':!*.md' || echo ' (sources modified)') in \`$build\`; old: commit $old_commit in \`$old\`"
  echo "- Machine: $(lscpu | sed -n 's/^Model name:[[:space:]]*//p'), $(nproc) cores; load average before / after: ${load_before} / ${load_after} (a shared machine: other processes compete for the cores, so wall times are upper bounds and vary between rounds; compare old and new within a round)"
  echo "- Compiler: new $(tests/benchmarks/compiler_of.sh "$build"), old $(tests/benchmarks/compiler_of.sh "$old"), Release (-O3 -DNDEBUG)"
  echo "- Command per run: \`/usr/bin/time -f '%M %e %U' BUILD/tests/benchmarks/bench_packing --benchmark_filter='BM_Packing/n:N/poly:P/spectra:S/damped:D/'\`, $rounds rounds, old and new alternated (order swapped every round)"
  echo
  echo "Cases (bench_packing.cpp): FCC lattice, periodic, 4 n^3 spheres, radii +-0.1 % (poly 1), k_n = 1e5 N/m,"
  echo "k_t = 3e4 N/m, with rotation; damped 1: gamma_n = 2000 1/s, gamma_t = 1000 1/s. Wall time: the whole"
  echo "process; omega_max and integrator limits: bench_packing's phase timers; user: CPU time of all threads."
  echo
  echo "## Medians over the rounds"
  echo
  echo "| case n,poly,spectra,damped | rounds | old wall | new wall | old / new | old peak RSS | new peak RSS |"
  echo "|---|---|---|---|---|---|---|"
  echo "$summary"
  echo
  echo "## Every run"
  echo
  echo "| round | case | build | wall | user | omega_max [s] | operator applications (omega_max) | integrator limits [s] | peak RSS | packing, omega_max [rad/s] |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  printf "%s" "$rows"
  if [[ -n $agreement ]]; then
    echo
    echo "## Agreement of the answers"
    echo
    echo "Every number of \`dtcrit packing ARGS --json\` (omega_max, the top mode's damping ratio, every integrator's"
    echo "h_crit and h_safe, every bound; not the timings), old against new, by"
    echo "\`tests/benchmarks/compare_packing_json.py OLD.json NEW.json\` (\"differ\": in any bit)."
    echo
    echo "| packing | ARGS | comparison |"
    echo "|---|---|---|"
    printf "%s" "$agreement"
  fi
  echo
  echo "Raw output:"
  echo
  echo '```'
  lscpu | sed -n '1,16p'
  echo
  cat "$raw"
  echo '```'
} >"$tmp/out.md"
mkdir -p "$(dirname "$out_md")"
mv "$tmp/out.md" "$out_md"
echo "wrote $out_md"
