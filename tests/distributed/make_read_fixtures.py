#!/usr/bin/python3
"""The data files of the --parallel-read tests, written into OUT by write_lattice_data (the benchmarks'
writer: FCC, compression 2e-3, radii spread): fcc5.data (500 spheres, radii +-0.1 %) and fcc5_bad.data,
the same with a negative diameter on one line near the end of its Atoms section (a line that the last
of several ranks parses, not rank 0), and one.data: one sphere in a periodic box shorter than its diameter
(it touches its own images; on more ranks, ranks own nothing and read no line)."""
import argparse
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--writer", required=True)
    ap.add_argument("--out", required=True)
    o = ap.parse_args()
    os.makedirs(o.out, exist_ok=True)
    good = os.path.join(o.out, "fcc5.data")
    subprocess.run([o.writer, "5", "1e-3", good], check=True)
    lines = open(good).read().split("\n")
    atoms = [k for k, l in enumerate(lines) if l.startswith("Atoms")]
    if len(atoms) != 1:
        sys.exit(f"{good}: expected one Atoms section")
    first = atoms[0] + 2  # after the keyword line and its blank line
    k = first + 450       # atom 451 of 500
    w = lines[k].split()
    w[2] = "-0.002"       # id type diameter density x y z: the diameter
    lines[k] = " ".join(w)
    with open(os.path.join(o.out, "fcc5_bad.data"), "w") as f:
        f.write("\n".join(lines))
    with open(os.path.join(o.out, "one.data"), "w") as f:
        f.write("one sphere\n\n1 atoms\n1 atom types\n\n0 0.00199 xlo xhi\n0 0.00199 ylo yhi\n0 0.00199 zlo zhi\n\n"
                "Atoms # sphere\n\n1 1 0.002 2500 0.001 0.001 0.001\n")
    print(f"wrote {good}, fcc5_bad.data (line {k + 1}: negative diameter) and one.data")


if __name__ == "__main__":
    main()
