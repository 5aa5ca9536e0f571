#!/usr/bin/python3
"""mpirun -np P dtcrit packing ARGS --json against the serial solver of the same binary.

The reference is the serial code path (--eigensolver dense or lanczos, which the distributed build runs
on rank 0 alone, without mpirun): omega_max, every integrator limit the distributed path computes,
h_safe, the exact velocity_verlet step and the bounds must agree within 1e-9 relative. Rows the
distributed path does not compute must say so (stability "not computed", h_crit null), never carry a
number; explicit Euler's and RK4's rows, a proven safe step alone there (no eigenvalues of the first-order
system), must not exceed the serial path's safe step nor its upper bound. Also checked: "ranks", "eigensolver" (lanczos, or slepc with --eigensolver slepc), one entry per
rank whose particles add up; against the serial Lanczos, the distributed Lanczos' omega_max to 1e-12
and (undamped) its number of applications.

With --parallel-read (the distributed run only): the report must say the file was read in parts, its
input echo and warnings must equal the serial run's, and with --owned-below F on two ranks or more no
rank may own more than F N / P of the N particles. --expect-serial-error: the command must fail under
mpirun with the serial run's error line, once.
"""
import json
import math
import subprocess
import sys

from mpi_support import comparison_args, expect_failure, mpi_env

TOL = 1e-9


def run(cmd, env):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=280)
    if p.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {p.returncode}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}")
    return json.loads(p.stdout)


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= TOL * max(abs(a), abs(b))


def main():
    def options(ap):
        ap.add_argument("--serial-solver", default="dense")
        ap.add_argument("--operator", default="shell", help="the distributed operator: shell or assembled")
        ap.add_argument("--eigensolver", default="auto", help="the distributed eigensolver: auto (Lanczos) or slepc")
        ap.add_argument("--parallel-read", action="store_true", help="the distributed run reads the data file in parts")
        ap.add_argument("--owned-below", type=float, help="with P >= 2 ranks, each owns at most this times N / P")
        ap.add_argument("--expect-serial-error", action="store_true",
                        help="both runs fail; the distributed one with the serial one's message, once")
    o, args = comparison_args(options)
    env = mpi_env()
    extra = ["--parallel-read"] if o.parallel_read else []

    if o.expect_serial_error:
        p = subprocess.run([o.dtcrit, "packing", *args, "--eigensolver", "lanczos"], capture_output=True, text=True,
                           env=env, timeout=120)
        lines = [l for l in p.stderr.splitlines() if l.startswith("dtcrit: error: ")]
        if p.returncode == 0 or len(lines) != 1:
            sys.exit(f"FAIL: the serial run should fail with one error line; got exit {p.returncode}:\n{p.stderr}")
        message = lines[0][len("dtcrit: error: "):]
        expect_failure([o.mpiexec, "-n", str(o.ranks), o.dtcrit, "packing", *args, *extra], message, o.ranks, env)
        return

    if o.expect_error:
        expect_failure([o.mpiexec, "-n", str(o.ranks), o.dtcrit, "packing", *args, *extra], o.expect_error, o.ranks, env)
        return
    # The distributed analysis keeps Gershgorin's h_safe (no Cholesky certificate across ranks): the
    # serial run is asked for the same (--certify-dofs 0).
    # Both to --rtol 1e-10, well inside TOL: at the default precision (1e-6) a dense serial solve and a
    # distributed Lanczos solve may differ by up to that.
    serial = run([o.dtcrit, "packing", *args, "--json", "--rtol", "1e-10", "--eigensolver", o.serial_solver,
                  "--certify-dofs", "0"], env)
    dist = run([o.mpiexec, "-n", str(o.ranks), o.dtcrit, "packing", *args, "--json", "--rtol", "1e-10", "--operator",
                o.operator, "--eigensolver", o.eigensolver, *extra], env)

    failures = []

    def expect(cond, what):
        if not cond:
            failures.append(what)

    expect(dist.get("ranks") == o.ranks, f"ranks {dist.get('ranks')} != {o.ranks}")
    solver = "slepc" if o.eigensolver == "slepc" else "lanczos"
    expect(dist.get("eigensolver") == solver, f"eigensolver {dist.get('eigensolver')} != {solver}")
    per = dist["distributed"]["per_rank"]
    expect(len(per) == o.ranks, f"{len(per)} per-rank entries for {o.ranks} ranks")
    expect(sum(r["particles"] for r in per) == serial["packing"]["particles"], "owned particles do not add up")
    expect(all(r["peak_memory_mb"] > 0 and r["wall_time_s"] > 0 for r in per), "per-rank time or memory missing")
    idle = sum(1 for r in per if r["particles"] == 0)
    if o.ranks > serial["packing"]["particles"]:  # more ranks than particles: some own none
        expect(idle >= o.ranks - serial["packing"]["particles"], f"{idle} ranks without particles")
    if o.ranks > 1 and idle < o.ranks - 1 and serial["packing"]["pair_contacts"] > 0:
        expect(sum(r["ghosts"] for r in per) > 0, "no contact crosses ranks: the test does not test the exchange")
    for key in ("particles", "dofs", "pair_contacts", "wall_contacts", "rattlers", "open_cohesive_contacts", "damped"):
        expect(dist["packing"][key] == serial["packing"][key], f"packing.{key}: {dist['packing'][key]} != {serial['packing'][key]}")
    expect(close(dist["packing"]["mean_coordination"], serial["packing"]["mean_coordination"]), "mean coordination")
    if o.parallel_read:
        expect(dist["distributed"]["input"].startswith("read in parts by every rank"),
               f"input: {dist['distributed']['input']}")
        expect(dist["inputs"] == serial["inputs"], f"inputs {dist['inputs']} != serial {serial['inputs']}")
        expect(dist.get("warnings") == serial.get("warnings"), f"warnings {dist.get('warnings')} != {serial.get('warnings')}")
    else:
        expect("rank 0" in dist["distributed"]["input"], f"input: {dist['distributed']['input']}")
    if o.owned_below and o.ranks >= 2:
        n = serial["packing"]["particles"]
        most = max(r["particles"] for r in per)
        expect(most <= o.owned_below * n / o.ranks, f"a rank owns {most} of {n} particles (> {o.owned_below} N / P)")
    expect(dist["eigen"]["converged"], f"{solver} did not converge")
    expect(close(dist["omega_max"], serial["omega_max"]), f"omega_max {dist['omega_max']!r} != serial {serial['omega_max']!r}")
    if solver == "lanczos" and o.serial_solver == "lanczos":
        # The same recurrence from the same start vector on any number of ranks: equal up to the rounding
        # of the sums, and (one solve without its vector: undamped) in as many applications.
        rel = abs(dist["omega_max"] - serial["omega_max"]) / serial["omega_max"]
        expect(rel <= 1e-12, f"omega_max differs from the serial Lanczos by {rel:.1e} (> 1e-12)")
        if not serial["packing"]["damped"]:
            expect(dist["eigen"]["operator_applications"] == serial["eigen"]["operator_applications"],
                   f"{dist['eigen']['operator_applications']} applications, the serial Lanczos "
                   f"{serial['eigen']['operator_applications']}")
    expect(close(dist["h_exact_velocity_verlet"], serial["h_exact_velocity_verlet"]),
           f"h_exact {dist['h_exact_velocity_verlet']!r} != {serial['h_exact_velocity_verlet']!r}")
    for name, e in serial["estimates"].items():
        d = dist["estimates"].get(name)
        expect(d is not None and close(d["seconds"], e["seconds"]), f"estimate {name}: {d and d['seconds']!r} != {e['seconds']!r}")
    computed = 0
    for name, s in serial["integrators"].items():
        d = dist["integrators"][name]
        if not d["computed"]:
            expect(d["h_crit"] is None and d["stability"] == "not computed", f"{name}: a row not computed carries a value")
            expect(name in dist["distributed"]["not_computed"], f"{name} missing from not_computed")
            continue
        computed += 1
        if d["upper_bound"] and d["h_crit"] is None and s["h_crit"] is not None:
            # Explicit Euler's and RK4's proven safe step alone (the distributed analysis does not solve the
            # first-order system; the serial path does, up to 20 000 dofs): from Gershgorin bounds, at most
            # the serial path's certified step and below its upper bound.
            expect(d["stability"] == s["stability"] == "conditional", f"{name}: stability {d['stability']}")
            # (the serial reference's exact row, from every eigenvalue, has no h_safe)
            expect(d["h_safe"] is not None and d["h_safe"] <= s["h_crit"] and
                   (s["h_safe"] is None or d["h_safe"] <= s["h_safe"] * (1 + 1e-12)),
                   f"{name}: proven safe step {d['h_safe']!r} above the serial h_safe {s['h_safe']!r} or h_crit {s['h_crit']!r}")
            continue
        expect(d["stability"] == s["stability"], f"{name}: stability {d['stability']} != {s['stability']}")
        expect(d["exact"] == s["exact"], f"{name}: exact {d['exact']} != {s['exact']}")
        expect(close(d["h_crit"], s["h_crit"]), f"{name}: h_crit {d['h_crit']!r} != serial {s['h_crit']!r}")
        expect(close(d["h_safe"], s["h_safe"]), f"{name}: h_safe {d['h_safe']!r} != serial {s['h_safe']!r}")
    if not serial["packing"]["damped"]:
        expect(computed == len(serial["integrators"]), "an undamped row was not computed")
    if failures:
        print(f"FAIL ({len(failures)}):\n  " + "\n  ".join(failures))
        sys.exit(1)
    rel = abs(dist["omega_max"] - serial["omega_max"]) / serial["omega_max"]
    print(f"ok: {o.ranks} ranks, {o.operator} operator, {solver}, omega_max {dist['omega_max']:.15g} rad/s (serial {serial['omega_max']:.15g}, "
          f"relative difference {rel:.2g}), {computed} of {len(serial['integrators'])} rows computed and equal, "
          f"{idle} ranks without particles, {sum(r['ghosts'] for r in per)} ghosts, "
          f"{dist['distributed']['eigensolves']} solves, {dist['eigen']['operator_applications']} operator applications "
          f"(the serial {o.serial_solver} solver's omega_max solve: {serial['eigen']['operator_applications']})")


if __name__ == "__main__":
    main()
