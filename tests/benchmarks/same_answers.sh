#!/usr/bin/env bash
# Whether two dtcrit binaries give the same answers: prints the sentence the build records end with,
# "yes" or "no" for the output of `dtcrit example` and for the `--json` answer (times aside) on the
# damped granular fcc packing of record_nonsymmetric.sh, n = 6. Used by the build records (record_unity_build.sh,
# record_build_change.sh) to show that a faster build builds the same program.
#   tests/benchmarks/same_answers.sh A/dtcrit B/dtcrit
set -euo pipefail
a="$1"; b="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
same="yes"
"$a" example > "$work/a.txt"
"$b" example > "$work/b.txt"
cmp -s "$work/a.txt" "$work/b.txt" || same="no"
packing=(packing --lattice fcc --n 6 --compression 2e-3 --radius-spread 1e-3 --lammps-pair
  "granular hooke 1e5 2000 damping mass_velocity tangential linear_history 3e4 0.5 0.5" --json)
"$a" "${packing[@]}" > "$work/a.json"
"$b" "${packing[@]}" > "$work/b.json"
same_packing="yes"
/usr/bin/python3 - "$work/a.json" "$work/b.json" "$work/differ.txt" <<'PY' || same_packing="no"
import json, sys
def timeless(j):  # wall times differ between any two runs
    if isinstance(j, dict):
        return {k: timeless(v) for k, v in j.items() if "timings" not in k and "seconds" not in k}
    if isinstance(j, list):
        return [timeless(v) for v in j]
    return j
a, b = (timeless(json.load(open(f))) for f in sys.argv[1:3])
def differ(x, y, path=""):  # the paths of the leaves that differ
    if isinstance(x, dict) and isinstance(y, dict):
        return [p for k in sorted(set(x) | set(y)) for p in differ(x.get(k), y.get(k), f"{path}.{k}" if path else k)]
    if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        return [p for k, (u, v) in enumerate(zip(x, y)) for p in differ(u, v, f"{path}[{k}]")]
    return [] if x == y else [path]
paths = differ(a, b)
with open(sys.argv[3], "w") as out:
    out.write(", ".join(f"`{p}`" for p in paths[:8]) + (f" and {len(paths) - 8} more" if len(paths) > 8 else ""))
sys.exit(0 if not paths else 1)
PY
echo "Same output of \`dtcrit example\` from both binaries: $same. Same \`--json\` answer (times"
if [ "$same_packing" = yes ]; then
  echo "aside) on the damped granular fcc packing of record_nonsymmetric.sh, n = 6: yes."
else
  # An older commit's answer differs where the analysis changed in between (git log OLD..NEW).
  echo "aside) on the damped granular fcc packing of record_nonsymmetric.sh, n = 6: no; they differ in"
  echo "$(cat "$work/differ.txt")."
fi
