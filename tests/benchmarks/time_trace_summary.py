#!/usr/bin/env python3
"""Sums clang's -ftime-trace files of a build: where the compiler's time goes, across objects.

Usage: time_trace_summary.py BUILD_DIR [TOP]
Reads every trace clang wrote beside its object under BUILD_DIR (X.cpp.o -> X.cpp.json) and prints Markdown:
the front end and back end per object, then the headers (time spent parsing each, summed over the
objects that include it), the templates (instantiation time summed over objects, grouped by the
name before its first '<'), clang's phase totals, and the back end's functions (the function
optimisation pipeline, demangled by c++filt and grouped alike). Events nest (a header includes headers, an instantiation instantiates others), so a row
holds its children's time too: the rows rank causes, they do not add up to the total.
"""
import collections
import glob
import json
import os
import shutil
import subprocess
import sys


def demangled(names):
    """c++filt's names (binutils) where it is installed, else the mangled ones."""
    if not names or not shutil.which("c++filt"):
        return names
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout.split("\n")
    return out[: len(names)] if len(out) >= len(names) else names


def group(name):
    cut = name.find("<")
    return name if cut < 0 else name[:cut] + "<…>"


def main():
    build = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    totals = []  # (object, frontend s, backend s)
    headers = collections.defaultdict(lambda: [0.0, set()])
    templates = collections.defaultdict(lambda: [0.0, set()])
    functions = collections.defaultdict(lambda: [0.0, set()])
    passes = collections.Counter()  # clang's "Total <phase>" events: time per compiler phase or pass
    for path in sorted(glob.glob(f"{build}/**/CMakeFiles/**/*.json", recursive=True)):
        obj = os.path.relpath(path, build)[: -len(".json")] + ".o"
        try:
            events = json.load(open(path)).get("traceEvents", [])
        except (ValueError, AttributeError):
            continue  # not a trace
        if not events:
            continue
        front = back = 0.0
        for e in events:
            name, dur = e.get("name", ""), e.get("dur", 0) / 1e6
            detail = (e.get("args") or {}).get("detail", "")
            if name.startswith("Total "):
                passes[name[len("Total "):]] += dur
            if name == "Total Frontend":
                front = dur
            elif name == "Total Backend":
                back = dur
            elif name == "Source" and detail:
                row = headers[os.path.normpath(detail)]
                row[0] += dur
                row[1].add(obj)
            elif name in ("InstantiateClass", "InstantiateFunction") and detail:
                row = templates[group(detail)]
                row[0] += dur
                row[1].add(obj)
            elif name == "OptFunction" and detail:
                row = functions[detail]
                row[0] += dur
                row[1].add(obj)
        totals.append((obj, front, back))
    if not totals:
        sys.exit(f"time_trace_summary.py: no time traces under {build} (build with clang++ and -ftime-trace)")

    print("| object | front end [s] | back end [s] |\n|---|---:|---:|")
    for obj, front, back in sorted(totals, key=lambda t: -(t[1] + t[2])):
        print(f"| {obj} | {front:.1f} | {back:.1f} |")
    print(f"| **all {len(totals)} objects** | **{sum(t[1] for t in totals):.1f}** | **{sum(t[2] for t in totals):.1f}** |")

    def table(title, rows, what):
        print(f"\n{title}\n\n| {what} | s, summed | objects |\n|---|---:|---:|")
        for key, (dur, objs) in sorted(rows.items(), key=lambda kv: -kv[1][0])[:top]:
            print(f"| `{key}` | {dur:.1f} | {len(objs)} |")

    print("\nPhases and passes (clang's totals; nested, so they overlap):\n\n| phase | s, summed |\n|---|---:|")
    for name, dur in passes.most_common(top):
        print(f"| {name} | {dur:.1f} |")

    named = dict(zip(functions, demangled(list(functions))))
    grouped = collections.defaultdict(lambda: [0.0, set()])
    for key, (dur, objs) in functions.items():
        row = grouped[group(named[key])]
        row[0] += dur
        row[1] |= objs
    functions = grouped

    table("Headers parsed (time in each, its own includes in it):", headers, "header")
    table("Templates instantiated (front end):", templates, "template")
    table("Functions optimised (back end):", functions, "function")


if __name__ == "__main__":
    main()
