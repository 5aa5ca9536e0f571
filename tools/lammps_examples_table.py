#!/usr/bin/env python3
"""The Markdown table of results/lammps_examples/README.md from one `dtcrit lammps-check --json` output:
the predicted steps, then per probed step the separation growth, its excess over the reference step,
the course of the runs and the run from rest's largest kinetic energy.

  tools/lammps_examples_table.py FILE.json"""
import json
import sys

if len(sys.argv) != 2:
    sys.exit(__doc__)
j = json.load(open(sys.argv[1]))
p = j["prediction"]
t = p["h_crit_unit"]
bound = " (an upper bound)" if p.get("h_diverge_upper_bound") else ""
print(f"h_crit = {p['h_crit']:.6g} {t}, h_diverge = {p['h_diverge']:.6g} {t} = {p['h_diverge'] / p['h_crit']:.4g} h_crit{bound}")
print()
energy = j["runs"][0]["energy_unit"]
print(f"| h / h_crit | steps | separation growth | excess over the reference | course | max KE of the run from rest [{energy}] |")
print("|---:|---:|---:|---:|---|---:|")
for r in j["runs"]:
    f = f"{r['factor']:g}" + (" (reference)" if r.get("reference") else "")
    print(f"| {f} | {r['steps_compared']} | {r['growth']:.3g} | {r['excess']:.3g} | {r['course']} | "
          f"{r['max_rest_run_kinetic_energy']:.3g} |")
print()
print(f"Verdict at 0.99/1.01: {j['verdict']}.")
