#!/usr/bin/env bash
# Regenerates results/benchmarks/precision.md: what `--rtol` buys. `dtcrit packing` on the polydisperse
# FCC lattice of issue 36 (4 n^3 spheres, radii +-0.1 %, k_n = 1e5, k_t = 3e4 N/m; damped: gamma_n =
# 2000, gamma_t = 1000 1/s) at the default precision (--rtol 1e-6) and at --rtol 1e-12, against an
# older build (before --rtol: omega_max to a residual of 1e-8, the damped limit by Newton to 1e-12),
# undamped and damped, ROUNDS rounds with the three runs' order rotated every round, each under
# /usr/bin/time. Then checks, per case: the default run's bracket [h_low, h_crit] holds the old
# answer, and the --rtol 1e-12 run gives the old answer to 1e-10 (every exact row's h_crit).
#
#   OLD_BUILD=/tmp/old/build-rel tests/benchmarks/record_precision.sh               (n = 63: 10^6 spheres)
#   OLD_BUILD=... N=29 ROUNDS=3 OUT=results/benchmarks/precision_n29.md tests/benchmarks/record_precision.sh
# OLD_BUILD: a Release build of the older commit with dtcrit in it, e.g.
#   git worktree add /tmp/old 1915fdc
#   cmake -S /tmp/old -B /tmp/old/build-rel -DCMAKE_BUILD_TYPE=Release -DDTCRIT_BUILD_TESTS=OFF \
#         -DDTCRIT_BUILD_STUDIES=OFF && cmake --build /tmp/old/build-rel -j2 --target dtcrit_cli
# BUILD_DIR: this checkout's Release build (default: build, the default preset).
set -euo pipefail
cd "$(dirname "$0")/../.."
old="${OLD_BUILD:?set OLD_BUILD to the older Release build directory}"
build="${BUILD_DIR:-build}"
n="${N:-63}"
rounds="${ROUNDS:-1}"
out_md="${OUT:-results/benchmarks/precision.md}"
old_commit=$(git -C "$old/.." rev-parse --short HEAD 2>/dev/null || echo "unknown")
[[ -x $old/dtcrit ]] || { echo "missing $old/dtcrit" >&2; exit 1; }
cmake --build "$build" --target dtcrit_cli >/dev/null
# The commit the new build was made from, taken now: the runs take long, and the tree may change.
new_stamp="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- lib tools ':!*.md' || echo ' (sources modified)')"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
lattice="--lattice fcc --n $n --compression 2e-3 --radius-spread 1e-3 --kn 1e5 --kt 3e4"
damping="--gamma-n 2000 --gamma-t 1000"
# One run: its JSON into $tmp/CASE.WHICH.ROUND.json, "case which round wall peak_mb" into $tmp/times.
run() {
  local case=$1 which=$2 round=$3 dir=$build extra=""
  [[ $which == old ]] && dir=$old
  [[ $which == tight ]] && extra="--rtol 1e-12"
  local args="$lattice"
  [[ $case == damped ]] && args+=" $damping"
  # shellcheck disable=SC2086
  /usr/bin/time -f "%M %e" -o "$tmp/time" "$dir/dtcrit" packing $args $extra --json >"$tmp/$case.$which.$round.json"
  read -r kb wall <"$tmp/time"
  echo "$case $which $round $wall $((kb / 1024))" >>"$tmp/times"
  echo "$case $which round $round: $wall s" >&2
}
for ((r = 1; r <= rounds; ++r)); do
  for case in undamped damped; do
    case $((r % 3)) in
      1) order="old new tight" ;;
      2) order="new tight old" ;;
      0) order="tight old new" ;;
    esac
    for which in $order; do run "$case" "$which" "$r"; done
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

tables=$(python3 - "$tmp" <<'EOF'
import glob, json, os, statistics, sys
tmp = sys.argv[1]
times = {}
for line in open(os.path.join(tmp, "times")):
    case, which, rnd, wall, mb = line.split()
    times[(case, which, rnd)] = (float(wall), int(mb))
label = {"old": "old (residual 1e-8, Newton)", "new": "new, --rtol 1e-6 (default)", "tight": "new, --rtol 1e-12"}
print("## Every run\n")
print("| case | build | round | wall | peak RSS | omega_max applications | damped solves, applications | "
      "velocity_verlet h_crit [s] | h_low [s] |")
print("|---|---|---|---|---|---|---|---|---|")
for (case, which, rnd), (wall, mb) in times.items():
    j = json.load(open(os.path.join(tmp, f"{case}.{which}.{rnd}.json")))
    e, vv = j["eigen"], j["integrators"]["velocity_verlet"]
    damped = f"{e['damped_solves']}, {e['damped_operator_applications']}" if "damped_solves" in e else "-"
    low = vv.get("h_low")
    print(f"| {case} | {label[which]} | {rnd} | {wall:.1f} s | {mb} MB | {e['operator_applications']} | {damped} | "
          f"{vv['h_crit']!r} | {'-' if low is None else repr(low)} |")
print("\n## Medians and checks\n")
print("| case | old wall | new wall (old / new) | --rtol 1e-12 wall (old / tight) | default bracket holds the old "
      "h_crit, every exact row | --rtol 1e-12 = old, every exact row (largest relative difference) |")
print("|---|---|---|---|---|---|")
for case in ("undamped", "damped"):
    med = {w: statistics.median(t[0] for k, t in times.items() if k[0] == case and k[1] == w) for w in label}
    old = json.load(open(os.path.join(tmp, f"{case}.old.1.json")))["integrators"]
    new = json.load(open(os.path.join(tmp, f"{case}.new.1.json")))["integrators"]
    tight = json.load(open(os.path.join(tmp, f"{case}.tight.1.json")))["integrators"]
    held, rows, worst = True, 0, 0.0
    for name, o in old.items():
        if not o["exact"] or o["h_crit"] is None or new[name].get("h_low") is None:
            continue
        rows += 1
        held = held and new[name]["h_low"] <= o["h_crit"] <= new[name]["h_crit"]
        worst = max(worst, abs(tight[name]["h_crit"] - o["h_crit"]) / o["h_crit"])
    print(f"| {case} | {med['old']:.1f} s | {med['new']:.1f} s ({med['old'] / med['new']:.2f}x) | "
          f"{med['tight']:.1f} s ({med['old'] / med['tight']:.2f}x) | {'yes' if held else 'NO'} ({rows} rows) | "
          f"{'yes' if worst <= 1e-10 else 'NO'} ({worst:.1e}) |")
EOF
)

{
  echo "# Precision: the limits to --rtol, against the build before it"
  echo
  echo "Generated by \`tests/benchmarks/record_precision.sh\` (do not edit by hand)."
  echo
  echo "- Date: $(date -u +%Y-%m-%dT%H:%MZ); new: commit $new_stamp in \`$build\`; old: commit $old_commit in \`$old\`"
  echo "- Machine: $(lscpu | sed -n 's/^Model name:[[:space:]]*//p'), $(nproc) cores; load average before / after: ${load_before} / ${load_after} (a shared machine: compare runs within a round)"
  echo "- Compiler: new $(tests/benchmarks/compiler_of.sh "$build"), old $(tests/benchmarks/compiler_of.sh "$old"), Release"
  echo "- Command per run: \`/usr/bin/time -f '%M %e' BUILD/dtcrit packing $lattice [$damping] [--rtol 1e-12] --json\`, $rounds round(s), the order of old, new and --rtol 1e-12 rotated every round"
  echo "- $((4 * n * n * n)) spheres. The default precision's bracket holds the old answer when h_low <= old h_crit <= h_crit for"
  echo "  every row the new build brackets; the old answer is itself a Lanczos answer (residual 1e-8)."
  echo
  echo "$tables"
} >"$out_md"
echo "wrote $out_md"
