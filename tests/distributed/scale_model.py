#!/usr/bin/env python3
"""The scale model of the distributed packing analysis, fitted to the records that
tests/distributed/record_distributed.sh writes, and its projection to 10^8 and 10^9 spheres on
64-4096 ranks.

Usage: /usr/bin/python3 tests/distributed/scale_model.py [--solver slepc|lanczos] [records...]
  slepc (default): SLEPc's Krylov-Schur, records results/benchmarks/distributed_n*.md, writes
                   results/benchmarks/distributed_model.md;
  lanczos:         the three-term Lanczos recurrence over the ranks, records
                   results/benchmarks/distributed_lanczos_n*.md, writes distributed_model_lanczos.md.
The matrix-free `shell` operator's rows are read.

What is fitted (least squares, each record an FCC lattice of 4 n^3 spheres, 6 contacts per sphere):
  - operator applications of the eigensolver against N:        apps = a + b log10 N (polydisperse
    lattices only: with equal radii the top eigenvalue converges in far fewer applications, so those
    records count for the time and the memory, not for the applications)
  - time per application on one rank against contacts:        t1 = tau * contacts
  - the extra time per application of two ranks (their exchange of ghost values; ranks run side by
    side on the 2 cores) against the ghosts of the busiest rank: t2 - tau * contacts_max = gamma * ghosts
  - peak memory of a rank that holds only its share (rank 1 of 2) against its particles:
    rss = m0 + beta * particles; rank 0's extra over rank 1 against N: the whole packing it reads
    and splits, beta0 * N (the rank-0 input);
  - with the parallel reader (`--parallel-read`, records results/benchmarks/parallel_read*.md of
    tests/distributed/record_parallel_read.sh), every rank's peak against its owned particles and
    ghosts: rss = mp + beta_p * (particles + ghosts), no rank holding more.
Projection: P ranks, subdomains cubes of N/P spheres (RCB), ghosts of a cube of L^3 FCC cells
(4 L^3 spheres) one layer deep on its six faces, 12 L^2 (the slab cut measured here has 2 n^2 per
face: the same law), time = apps(N) * (tau * 6 N/P + gamma * ghosts + allreduce), the
allreduces of a step (Lanczos: two; Krylov-Schur: assumed two as well) each log2(P) x 5 us on a cluster
network (assumed: not measurable here).
"""
import glob
import math
import re
import sys


def read_record(path):
    text = open(path).read()
    n = int(re.search(r"FCC n = (\d+)", text).group(1))
    serial = re.search(r"Serial .*?omega_max = ([0-9.e+-]+) rad/s, (\d+) operator applications, ([0-9.]+) s for omega_max, "
                       r"peak RSS (\d+) MB", text)
    rows = []
    for line in text.splitlines():
        w = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(w) == 14 and w[0] in ("shell", "assembled"):
            rows.append({"operator": w[0], "ranks": int(w[1]), "rank": int(w[2]), "particles": int(w[3]),
                         "ghosts": int(w[4]), "contacts": int(w[5]), "wall": float(w[6]), "rss": float(w[7]),
                         "omega_time": float(w[8]), "apps": int(w[9])})
    load = re.search(r"load average before / after: ([0-9. ]+) / ([0-9. ]+)", text)
    spread = re.search(r"--radius-spread ([0-9.e+-]+)", text)
    return {"path": path, "n": n, "N": 4 * n ** 3, "spread": float(spread.group(1)) if spread else 1e-3, "serial_apps": int(serial.group(2)),
            "serial_time": float(serial.group(3)), "serial_rss": float(serial.group(4)), "rows": rows,
            "load": f"{load.group(1).strip()} / {load.group(2).strip()}" if load else "?"}


def read_parallel_read(path):
    """The --parallel-read rows of a record_parallel_read.sh record: per rank (particles + ghosts, peak MB)."""
    points = []
    for line in open(path).read().splitlines():
        w = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(w) == 10 and w[3] == "--parallel-read":
            mem = [float(x) for x in w[4].split("/")]
            owned = [int(x) for x in w[6].split("/")]
            ghosts = [int(x) for x in w[7].split("/")]
            points += [{"N": int(w[0]), "ranks": int(w[2]), "held": o + g, "rss": m}
                       for m, o, g in zip(mem, owned, ghosts)]
    return points


def fit_line(xs, ys):
    """Least squares y = a + b x; with one point, a = 0."""
    if len(xs) == 1:
        return 0.0, ys[0] / xs[0]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return my - b * mx, b


def fit_origin(xs, ys):
    """Least squares y = b x."""
    return sum(x * y for x, y in zip(xs, ys)) / sum(x * x for x in xs)


SOLVERS = {
    "slepc": {"glob": "results/benchmarks/distributed_n*.md", "out": "results/benchmarks/distributed_model.md",
              "name": "SLEPc Krylov-Schur", "vectors": 16,
              "vectors_text": "SLEPc's 16-vector basis", "count_note": "SLEPc's start vector depends on the partition"},
    "lanczos": {"glob": "results/benchmarks/distributed_lanczos_n*.md",
                "out": "results/benchmarks/distributed_model_lanczos.md",
                "name": "the three-term Lanczos recurrence over the ranks", "vectors": 3,
                "vectors_text": "the recurrence's 3 vectors",
                "count_note": "the recurrence starts from the serial start vector on any number of ranks"},
}


def main():
    argv = sys.argv[1:]
    solver = "slepc"
    if argv[:1] == ["--solver"]:
        if len(argv) < 2 or argv[1] not in SOLVERS:
            sys.exit(f"scale_model.py: --solver takes one of {', '.join(SOLVERS)}")
        solver, argv = argv[1], argv[2:]
    S = SOLVERS[solver]
    paths = argv or sorted(glob.glob(S["glob"]))
    records = [read_record(p) for p in paths]
    records = [r for r in records if any(x["operator"] == "shell" for x in r["rows"])]
    if not records:
        sys.exit("scale_model.py: no record with shell rows (run tests/distributed/record_distributed.sh first)")
    records.sort(key=lambda r: r["N"])
    # Every shell run counts for the applications; one-rank runs for the time per contact; two-rank runs
    # for the exchange and the memory of a rank holding its share.
    apps_runs, perfect_runs, one, two = [], [], [], []
    for r in records:
        shell = [x for x in r["rows"] if x["operator"] == "shell"]
        for ranks in sorted({x["ranks"] for x in shell}):
            rows = [x for x in shell if x["ranks"] == ranks]
            (apps_runs if r["spread"] > 0 else perfect_runs).append((r["N"], ranks, rows[0]["apps"]))
        o = [x for x in shell if x["ranks"] == 1]
        if o:
            one.append({"N": r["N"], "t1": o[0]["omega_time"] / o[0]["apps"], "contacts1": o[0]["contacts"]})
        t = [x for x in shell if x["ranks"] == 2]
        if len(t) == 2:
            busy = max(t, key=lambda x: x["contacts"])
            two.append({"N": r["N"], "t2": busy["omega_time"] / busy["apps"], "contacts2": busy["contacts"],
                        "ghosts2": busy["ghosts"], "rss_share": t[1]["rss"], "particles_share": t[1]["particles"],
                        "rss0_extra": t[0]["rss"] - t[1]["rss"]})
    if not one or not two:
        sys.exit("scale_model.py: the records need a shell run on 1 rank and one on 2 ranks")
    a_apps, b_apps = fit_line([math.log10(N) for N, _, _ in apps_runs], [float(a) for _, _, a in apps_runs])
    tau = fit_origin([p["contacts1"] for p in one], [p["t1"] for p in one])
    gamma = fit_origin([p["ghosts2"] for p in two], [max(0.0, p["t2"] - tau * p["contacts2"]) for p in two])
    m0, beta = fit_line([p["particles_share"] for p in two], [p["rss_share"] * 1e6 for p in two])
    beta0 = fit_origin([p["N"] for p in two], [p["rss0_extra"] * 1e6 for p in two])
    reader_paths = sorted(glob.glob("results/benchmarks/parallel_read*.md"))
    reader = [q for path in reader_paths for q in read_parallel_read(path)]
    mp, beta_p = fit_line([q["held"] for q in reader], [q["rss"] * 1e6 for q in reader]) if reader else (0.0, 0.0)

    out = []
    out.append(f"# Scale model of the distributed packing analysis ({S['name']}): fitted here, projected to 10^8 and "
               "10^9 spheres\n")
    out.append("Generated by `tests/distributed/scale_model.py` from the records below (do not edit by hand). "
               "FCC lattices, undamped, radii +-0.1 % (polydisperse) unless the record says equal radii, matrix-free "
               f"`shell` operator, {S['name']} at tolerance 1e-8; measured on the 2-core machine of the records "
               "(two ranks share its two cores).\n")
    out.append("## Measurements used\n")
    out.append("| record | spheres N | radii | load (before / after) | ranks | rank | particles | ghosts | contacts | omega_max [s] "
               "| applications | s per application | peak RSS [MB] |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in records:
        for x in r["rows"]:
            if x["operator"] != "shell":
                continue
            radii = "equal" if r["spread"] == 0 else f"+-{r['spread'] * 100:g} %"
            out.append(f"| {r['path'].split('/')[-1]} | {r['N']} | {radii} | {r['load']} | {x['ranks']} | {x['rank']} | {x['particles']} | "
                       f"{x['ghosts']} | {x['contacts']} | {x['omega_time']:.1f} | {x['apps']} | "
                       f"{x['omega_time'] / x['apps']:.4f} | {x['rss']:.0f} |")
    out.append("\nThe serial three-term Lanczos of the same binary (2 threads) beside them: "
               + "; ".join(f"N = {r['N']}: {r['serial_apps']} applications, {r['serial_time']:.1f} s" for r in records) + ".")
    out.append("\n## Fitted\n")
    spread = {}
    for N, _, a in apps_runs:
        spread.setdefault(N, []).append(a)
    out.append(f"- Operator applications: {a_apps:.0f} + {b_apps:.0f} log10 N, fitted to {len(apps_runs)} runs; at one N "
               f"they differ between runs or not ({S['count_note']}): "
               + ", ".join(f"N = {N}: {min(v)}-{max(v)}" for N, v in sorted(spread.items()))
               + ("" if not perfect_runs else
                  "; equal radii, not fitted: " + ", ".join(f"N = {N}, {P} rank{'s' if P > 1 else ''}: {a}"
                                                            for N, P, a in perfect_runs)))
    out.append(f"- Time per application on one rank: {tau * 1e9:.1f} ns per contact (the contact kernel, the "
               "eigensolver's vector work and the MatShell overhead together)")
    out.append(f"- Exchange on two ranks: {gamma * 1e9:.1f} ns per ghost and application (shared-memory MPI on one "
               "machine: a cluster network is slower per byte; see the assumptions)")
    out.append(f"- Peak memory of a rank holding its share: {m0 / 1e6:.0f} MB + {beta:.0f} bytes per owned particle "
               f"(its contacts, ghosts, GlobalSystem and {S['vectors_text']} of 6 dofs per particle: "
               f"{S['vectors'] * 6 * 8} bytes of it)")
    out.append(f"- Rank 0's extra with the rank-0 input (the whole packing read and split there): {beta0:.0f} bytes per "
               "sphere of the packing")
    if reader:
        worst = max(reader, key=lambda q: abs(q["rss"] * 1e6 - (mp + beta_p * q["held"])) / (q["rss"] * 1e6))
        out.append(f"- Peak memory of every rank with `--parallel-read` (the eigensolver of that record, three-term "
                   f"Lanczos): {mp / 1e6:.0f} MB + {beta_p:.0f} bytes per particle held (owned and ghosts), fitted to "
                   f"{len(reader)} ranks' peaks of {len(reader_paths)} records ("
                   + ", ".join(p.split('/')[-1] for p in reader_paths)
                   + f": N = {', '.join(str(N) for N in sorted({q['N'] for q in reader}))} on "
                   f"{', '.join(str(P) for P in sorted({q['ranks'] for q in reader}))} ranks); the largest misfit "
                   f"{100 * abs(worst['rss'] * 1e6 - (mp + beta_p * worst['held'])) / (worst['rss'] * 1e6):.0f} % "
                   f"(N = {worst['N']}, {worst['ranks']} ranks)")
    out.append("")
    out.append("## Projection: 10^8 and 10^9 spheres\n")
    out.append("Per application: the contact work tau 6 N/P, the ghost exchange gamma 12 L^2 (a cube of L^3 FCC cells per "
               "rank) and two allreduces of log2(P) x 5 us. \"Limited by\" names the largest of the three. Memory: a "
               "rank holding its share after the rank-0 input, and rank 0 there (its copy of the whole packing); "
               "with `--parallel-read`, every rank (owned particles and ghosts, the reader's fit).\n")
    out.append("| spheres N | ranks P | spheres per rank | ghosts per rank | applications | s per application | time for omega_max "
               "| limited by | memory per rank [GB] | rank 0 [GB] | every rank, --parallel-read [GB] |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for N in (1e8, 1e9):
        apps = a_apps + b_apps * math.log10(N)
        for P in (64, 512, 4096):
            per = N / P
            L = (per / 4.0) ** (1.0 / 3.0)
            ghosts = 12.0 * L * L
            parts = {"contacts": tau * 6.0 * per, "ghost exchange": gamma * ghosts, "allreduce": 2.0 * math.log2(P) * 5e-6}
            t = sum(parts.values())
            mem = m0 + beta * per
            out.append(f"| {N:.0e} | {P} | {per:.3g} | {ghosts:.3g} | {apps:.0f} | {t:.4f} | {apps * t / 60:.1f} min | "
                       f"{max(parts, key=parts.get)} | {mem / 1e9:.2f} | {(mem + beta0 * N) / 1e9:.1f} | "
                       + (f"{(mp + beta_p * (per + ghosts)) / 1e9:.2f} |" if reader else "- |"))
    out.append("""
## Assumptions a cluster run would have to confirm

- **Iterations.** The fit of applications against N rests on the sizes above; the solver's count
  depends on the gap at the top of the spectrum, which a settled, disordered packing may make larger
  or smaller than these lattices.
- **Time per contact** is this machine's (its cache and memory bandwidth, with two ranks sharing it);
  a cluster node with more cores per socket shares bandwidth differently.
- **Communication.** The two ranks here exchange ghosts through shared memory. On a network the cost
  per ghost is higher and each step adds global reductions (assumed 2 log2 P x 5 us above):
  at 10^8 spheres the ghost layer is a few percent of a rank's particles, so the projection is
  dominated by the contact work unless the network is far slower than assumed.
- **Partition.** Cubes by RCB are assumed; the slab cut on two ranks here has the same ghosts per face.
- **Rank 0 holds the whole packing** with the rank-0 input (the "rank 0" column): at 10^8 spheres
  that does not fit a usual node. With `--parallel-read` each rank reads its byte range of the data
  file and holds its own particles and ghosts (the last column); what the reader then costs is the
  file system's bandwidth for N/P lines per rank, which this machine (one local disk) cannot
  measure for a cluster's parallel file system.
""")
    text = "\n".join(out)
    open(S["out"], "w").write(text)
    print(text)


if __name__ == "__main__":
    main()
