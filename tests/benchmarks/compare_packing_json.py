#!/usr/bin/env python3
"""Compares two `dtcrit packing --json` answers number by number (every numeric leaf but the timings).

  compare_packing_json.py [--texts-may-differ] OLD.json NEW.json

Prints one line: how many numbers, how many differ in any bit, the largest relative difference and
where, and the same without the eigensolver's residual (/eigen/relative_residual: how closely the
solve met its stopping rule, a rounding-level number that any change of summation order moves, not
an answer); exits 1 if a number differs by more than 1e-12 relative or the two have different keys,
or a text differs (with --texts-may-differ, such as a method's description: the texts that differ are
named and the numbers still compared).
"""
import json
import math
import sys


def leaves(node, path=""):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "timings_s":
                continue
            yield from leaves(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from leaves(value, f"{path}[{i}]")
    else:
        yield path, node


def main():
    args = sys.argv[1:]
    texts_may_differ = "--texts-may-differ" in args
    args = [a for a in args if a != "--texts-may-differ"]
    old = dict(leaves(json.load(open(args[0]))))
    new = dict(leaves(json.load(open(args[1]))))
    texts = []
    if old.keys() != new.keys():
        print(f"different keys: {sorted(old.keys() ^ new.keys())[:5]}")
        return 1
    numbers = differ = 0
    worst, where = 0.0, "-"
    answers, answers_where = 0.0, "-"  # every number but the residual
    for path, a in old.items():
        b = new[path]
        if isinstance(a, bool) or not isinstance(a, (int, float)):
            if a != b:
                if not texts_may_differ:
                    print(f"{path}: {a!r} != {b!r}")
                    return 1
                texts.append(path)
            continue
        numbers += 1
        if a == b or (isinstance(a, float) and math.isnan(a) and math.isnan(b)):
            continue
        differ += 1
        rel = abs(a - b) / max(abs(a), abs(b))
        if rel > worst:
            worst, where = rel, path
        if path != "/eigen/relative_residual" and rel > answers:
            answers, answers_where = rel, path
    print(f"{numbers} numbers, {differ} differ, largest relative difference {worst:.3g} ({where}); "
          f"without the eigensolver's residual {answers:.3g} ({answers_where})"
          + (f"; {len(texts)} texts differ ({', '.join(texts)})" if texts else ""))
    return 0 if worst <= 1e-12 else 1


if __name__ == "__main__":
    sys.exit(main())
