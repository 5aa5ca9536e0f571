#!/usr/bin/env python3
"""Compares two `dtcrit sweep --json` outputs of the same case (old build, new build).

Every field must be equal (bit for bit: JSON numbers are printed round-trip) except
  - timing: seconds, seconds_by_part, reference_seconds (wall time varies from run to run);
  - fields the old output does not have (added since; listed);
  - the empirical stability search, which may land on a different valid bracket: for each
    integrator the statuses must be equal, the brackets [lo, hi] must overlap, a "found" bracket
    must satisfy hi - lo <= rel_tol * lo, and h_crit_empirical (the bracket's midpoint),
    stability_run_steps and the unconverged-run counts are reported where they differ.
With --exact the search fields must be equal too (e.g. one thread against several).
Prints one line per integrator and exits 1 on any other difference.
  compare_sweep_json.py OLD.json NEW.json [--rel-tol 1e-4] [--exact] [--quiet]
"""
import argparse
import json
import sys

TIMING = {"seconds", "seconds_by_part", "reference_seconds"}
SEARCH = {"h_crit_empirical", "h_crit_empirical_bracket", "stability_run_steps", "stability_unconverged_runs",
          "stability_smallest_unconverged_h", "stability_runs", "stability_steps_taken"}


def diff(a, b, path, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k in TIMING:
                continue
            if k not in b:
                out.append(f"{path}/{k}: missing in the new output")
            elif k not in a:
                continue  # a field added since the old build
            else:
                diff(a[k], b[k], f"{path}/{k}", out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} entries against {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, f"{path}[{i}]", out)
    elif a != b or type(a) is not type(b):
        out.append(f"{path}: {a!r} against {b!r}")


def as_float(x):
    return float(x)  # "inf" / "nan" are written as strings


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rel-tol", type=float, default=1e-4)
    ap.add_argument("--exact", action="store_true", help="the search fields must be equal too")
    ap.add_argument("--quiet", action="store_true", help="only the verdict line")
    args = ap.parse_args()
    old, new = json.load(open(args.old)), json.load(open(args.new))
    problems, lines = [], []
    same = compared = 0
    added = sorted(set(new) - set(old) - TIMING)
    top_old = {k: v for k, v in old.items() if k != "integrators"}
    top_new = {k: v for k, v in new.items() if k != "integrators"}
    diff(top_old, top_new, "", problems)
    if len(old["integrators"]) != len(new["integrators"]):
        problems.append("different numbers of integrators")
    for a, b in zip(old["integrators"], new["integrators"]):
        name = a["integrator"]
        if b["integrator"] != name:
            problems.append(f"integrator order differs: {name} against {b['integrator']}")
            continue
        added += [f"{name}/{k}" for k in sorted(set(b) - set(a) - TIMING)]
        skip = set() if args.exact else SEARCH
        diff({k: v for k, v in a.items() if k not in skip}, {k: v for k, v in b.items() if k not in skip},
             name, problems)
        lo_a, hi_a = (as_float(x) for x in a["h_crit_empirical_bracket"])
        lo_b, hi_b = (as_float(x) for x in b["h_crit_empirical_bracket"])
        status = b["h_crit_empirical_status"]
        line = f"{name}: {status}, old [{lo_a!r}, {hi_a!r}] new [{lo_b!r}, {hi_b!r}]"
        if a["h_crit_empirical_status"] == "skipped" and status == "skipped":
            lines.append(f"{name}: stability skipped in both")
            continue
        same += (lo_a, hi_a) == (lo_b, hi_b)
        compared += 1
        overlap = max(lo_a, lo_b) <= min(hi_a, hi_b)
        line += " overlap" if overlap else " NO OVERLAP"
        if not overlap:
            problems.append(f"{name}: brackets do not overlap")
        if status == "found":
            ok = hi_b - lo_b <= args.rel_tol * lo_b
            line += f", (hi-lo)/lo = {(hi_b - lo_b) / lo_b:.3g}" + ("" if ok else f" > {args.rel_tol}")
            if not ok:
                problems.append(f"{name}: new bracket wider than {args.rel_tol}")
        if "stability_runs" in b:
            line += f", runs {a.get('stability_runs', '?')} -> {b['stability_runs']}"
        for k in ("stability_run_steps", "stability_unconverged_runs", "stability_smallest_unconverged_h"):
            if a.get(k) != b.get(k):
                line += f", {k} {a.get(k)} -> {b.get(k)}"
        lines.append(line)
    if added:
        lines.append("fields new since the old build (not compared): " +
                     ", ".join(sorted(set(k.split('/')[-1] for k in added))))
    lines += [f"DIFFERENCE: {p}" for p in problems]
    if not args.quiet:
        print("\n".join(lines))
    what = ("equal apart from timing" if args.exact else
            f"equal apart from timing and the empirical brackets (all overlap; {same} of {compared} identical)")
    print(what if not problems else f"{len(problems)} difference(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
