#!/usr/bin/env bash
# Regenerates results/benchmarks/default_command_1e6.md: the whole `dtcrit packing` command of issue
# 36's goal 6 (the polydisperse FCC lattice, 4 n^3 spheres, radii +-0.1 %, k_n = 1e5, k_t = 3e4 N/m;
# damped: gamma_n = 2000, gamma_t = 1000 1/s; every default row, default --rtol), this checkout's
# build against an older one, undamped and damped, ROUNDS rounds with the order of the two builds
# swapped every round, each run under /usr/bin/time. Then, per case, every row both builds call exact:
# do their brackets [h_low, h_crit] overlap (the same limit to the precision asked)?
#
#   OLD_BUILD=/tmp/old/build-rel tests/benchmarks/record_default_command.sh           (n = 63: 10^6 spheres)
#   OLD_BUILD=... N=29 ROUNDS=1 OUT=/tmp/default_n29.md tests/benchmarks/record_default_command.sh
# OLD_BUILD: a Release build of the older commit with dtcrit in it, e.g.
#   git worktree add /tmp/old 09220e4
#   cmake -S /tmp/old -B /tmp/old/build-rel -DCMAKE_BUILD_TYPE=Release -DDTCRIT_BUILD_TESTS=OFF \
#         -DDTCRIT_BUILD_STUDIES=OFF && cmake --build /tmp/old/build-rel -j2 --target dtcrit_cli
# BUILD_DIR: this checkout's Release build (default: build, the default preset).
set -euo pipefail
cd "$(dirname "$0")/../.."
old="${OLD_BUILD:?set OLD_BUILD to the older Release build directory}"
build="${BUILD_DIR:-build}"
n="${N:-63}"
rounds="${ROUNDS:-2}"
out_md="${OUT:-results/benchmarks/default_command_1e6.md}"
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
run() {
  local case=$1 which=$2 round=$3 dir=$build args="$lattice"
  [[ $which == old ]] && dir=$old
  [[ $case == damped ]] && args+=" $damping"
  # shellcheck disable=SC2086
  /usr/bin/time -f "%M %e" -o "$tmp/time" "$dir/dtcrit" packing $args --json >"$tmp/$case.$which.$round.json"
  read -r kb wall <"$tmp/time"
  echo "$case $which $round $wall $((kb / 1024)) $(cut -d' ' -f1 /proc/loadavg)" >>"$tmp/times"
  echo "$case $which round $round: $wall s" >&2
}
for ((r = 1; r <= rounds; ++r)); do
  for case in undamped damped; do
    if ((r % 2)); then order="old new"; else order="new old"; fi
    for which in $order; do run "$case" "$which" "$r"; done
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

tables=$(python3 - "$tmp" "$old_commit" "$new_stamp" <<'EOF'
import json, os, statistics, sys
tmp, old_commit, new_stamp = sys.argv[1:4]
label = {"old": f"old ({old_commit})", "new": f"new ({new_stamp})"}
times = {}
for line in open(os.path.join(tmp, "times")):
    case, which, rnd, wall, mb, load = line.split()
    times[(case, which, rnd)] = (float(wall), int(mb), load)
def phases(j):
    return ", ".join(f"{k} {v:.1f}" for k, v in j["timings_s"].items())
print("## Every run\n")
print("| case | build | round | load at the end | wall | peak RSS | phases [s] | applications (omega_max; damped root) |")
print("|---|---|---|---|---|---|---|---|")
for (case, which, rnd), (wall, mb, load) in times.items():
    j = json.load(open(os.path.join(tmp, f"{case}.{which}.{rnd}.json")))
    e = j["eigen"]
    apps = f"{e['operator_applications']}; {e.get('damped_operator_applications', 0)}"
    print(f"| {case} | {label[which]} | {rnd} | {load} | {wall:.1f} s | {mb} MB | {phases(j)} | {apps} |")
print("\n## Medians, and the rows of the two builds\n")
print("| case | old wall (median) | new wall (median) | new / old | rows exact in both, brackets overlapping | "
      "rows whose status differs (old -> new) |")
print("|---|---|---|---|---|---|")
def status(row):
    if row.get("h_crit") is None:
        return "no limit" if row.get("stability") == "conditional" else row.get("stability", "?")
    if row.get("upper_bound"):
        return "upper bound"
    return "exact" if row.get("exact") else "estimate"
for case in ("undamped", "damped"):
    med = {w: statistics.median(t[0] for k, t in times.items() if k[0] == case and k[1] == w) for w in label}
    old = json.load(open(os.path.join(tmp, f"{case}.old.1.json")))["integrators"]
    new = json.load(open(os.path.join(tmp, f"{case}.new.1.json")))["integrators"]
    both, overlap, changed = 0, 0, []
    for name, o in old.items():
        w = new[name]
        if status(o) != status(w):
            changed.append(f"{name}: {status(o)} {o.get('h_crit')} -> {status(w)} {w.get('h_crit')}")
            continue
        if status(o) != "exact":
            continue
        both += 1
        lo = lambda r: r["h_low"] if r.get("h_low") is not None else r["h_crit"]
        overlap += max(lo(o), lo(w)) <= min(o["h_crit"], w["h_crit"]) * (1 + 1e-12)
    print(f"| {case} | {med['old']:.1f} s | {med['new']:.1f} s | {med['new'] / med['old']:.2f} | "
          f"{overlap} of {both} | {'; '.join(changed) or 'none'} |")
EOF
)

{
  echo "# The whole \`dtcrit packing\` command at $((4 * n * n * n)) spheres, against an older build"
  echo
  echo "Generated by \`tests/benchmarks/record_default_command.sh\` (do not edit by hand)."
  echo
  echo "- Date: $(date -u +%Y-%m-%dT%H:%MZ); new: commit $new_stamp in \`$build\`; old: commit $old_commit in \`$old\`"
  echo "- Machine: $(lscpu | sed -n 's/^Model name:[[:space:]]*//p'), $(nproc) cores; load average before / after: ${load_before} / ${load_after} (a shared machine: compare runs within a round)"
  echo "- Compiler: new $(tests/benchmarks/compiler_of.sh "$build"), old $(tests/benchmarks/compiler_of.sh "$old"), Release"
  echo "- Command per run: \`/usr/bin/time -f '%M %e' BUILD/dtcrit packing $lattice [$damping] --json\` (every default row,"
  echo "  default \`--rtol\`), $rounds round(s), the order of the two builds swapped every round"
  echo
  echo "$tables"
} >"$out_md"
echo "wrote $out_md"
