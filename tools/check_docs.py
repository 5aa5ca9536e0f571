#!/usr/bin/env python3
"""Runs the command of every documentation block that shows output, and compares its printed lines
with what the command prints now, so that no README or GUIDE figure goes stale.

A checked block is a fenced block with a line starting with "$ " (the command, continued by lines
ending in a backslash) and the expected output below it, up to the next "$ " or the end of the
block. A line "..." elides any number of lines. Expected lines must appear in the output in order;
words must be equal, numbers equal to within one unit of their last printed digit. `build/dtcrit` in
a command is the CLI given on the command line; commands run from the repository's root. A command
that needs LAMMPS (`lammps-check`, `--run-in-lammps`) is skipped when `lmp` is not installed, and one that
reads LAMMPS' example scripts (/usr/share/lammps/examples) when Debian's lammps-examples is not installed.

  tools/check_docs.py DTCRIT_CLI [FILE.md ...]    (default: every README and results/GUIDE.md)
Exit status 1 when a block differs (each difference printed with its file and line)."""
import glob
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def blocks(path):
    """(line number, command, expected lines) of each command in a fenced block of path."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out, inside, i = [], False, 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            inside = not inside
        elif inside and line.startswith("$ "):
            start, command = i + 1, line[2:]
            while command.endswith("\\"):
                i += 1
                command = command[:-1] + " " + lines[i].strip()
            expected = []
            while i + 1 < len(lines) and not lines[i + 1].startswith("```") and not lines[i + 1].startswith("$ "):
                i += 1
                expected.append(lines[i])
            out.append((start, command, expected))
        i += 1
    return out


def unit_of_last_digit(token):
    """One unit of the last printed digit of a number as printed ("3.93e-05": 1e-07)."""
    mantissa, _, exponent = token.lower().partition("e")
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    return 10.0 ** (int(exponent or 0) - decimals)


def same_word(expected, got):
    if expected == got:
        return True
    e, g = expected.strip(",;()"), got.strip(",;()")
    if NUMBER.match(e) and NUMBER.match(g):
        return abs(float(e) - float(g)) <= 1.000001 * unit_of_last_digit(e)
    return False


def same_line(expected, got):
    e, g = expected.split(), got.split()
    return len(e) == len(g) and all(same_word(a, b) for a, b in zip(e, g))


def compare(expected, output):
    """The first expected line not found in order (None: all found)."""
    got = output.split("\n")
    at = 0
    adjacent = False
    for line in expected:
        if line.strip() == "...":
            adjacent = False
            continue
        if not line.strip():
            continue
        while at < len(got) and not same_line(line, got[at]):
            if adjacent and got[at].strip():
                return line, got[at]
            at += 1
        if at == len(got):
            return line, None
        at += 1
        adjacent = True
    return None


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cli = os.path.abspath(sys.argv[1])
    files = sys.argv[2:] or (["README.md", "results/GUIDE.md"] + sorted(glob.glob("lib/dtcrit/*/README.md")) +
                             ["python/README.md"])
    failures = checked = 0
    for f in files:
        for line_no, command, expected in blocks(os.path.join(ROOT, f)):
            where = f"{f}:{line_no}"
            if ("lammps-check" in command or "--run-in-lammps" in command) and shutil.which("lmp") is None:
                print(f"{where}: skipped (needs LAMMPS' lmp): {command[:80]}")
                continue
            if "/usr/share/lammps/examples" in command and not os.path.isdir("/usr/share/lammps/examples"):
                print(f"{where}: skipped (needs Debian's lammps-examples): {command[:80]}")
                continue
            run = re.sub(r"(^|\s)build/dtcrit\b", lambda m: m.group(1) + cli, command)
            result = subprocess.run(["bash", "-c", run], cwd=ROOT, capture_output=True, text=True, timeout=600)
            checked += 1
            difference = compare(expected, result.stdout + result.stderr)
            if result.returncode != 0 and not any("error" in e for e in expected):
                failures += 1
                print(f"{where}: the command failed (exit {result.returncode}): {command}\n"
                      f"  {(result.stderr or result.stdout).strip()[-400:]}")
            elif difference:
                failures += 1
                want, got = difference
                print(f"{where}: the docs show\n  {want.strip()}\nbut `{command}` prints "
                      + (f"\n  {got.strip()}" if got is not None else "no such line (in order)"))
            else:
                print(f"{where}: as documented: {command[:100]}")
    print(f"{checked} documented commands run, {failures} differ from their docs")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
