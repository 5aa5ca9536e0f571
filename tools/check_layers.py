#!/usr/bin/env python3
"""Checks the layering of lib/dtcrit (ARCHITECTURE.md): every folder may include its own files and
those of the folders of lower layers only. Fails (exit 1), naming file, line and include, when an
include goes upwards or sideways, names a folder the layers do not know, or when the folders'
includes form a cycle.

    tools/check_layers.py [LIB_DTCRIT_DIR]     (default: lib/dtcrit beside this script's folder)
"""
import pathlib
import re
import sys

# Lowest first. A folder may include the folders of the layers below its own, never its own layer's
# other folders nor anything above: the dependency graph is then acyclic by construction.
LAYERS = [
    ["core"],                                        # vocabulary, checks, text and numbers, thread pool
    ["contact", "dynamics", "linalg"],               # contact laws, systems, eigensolvers
    ["bodies"],                                      # planar rigid bodies (their round ones' inertia: contact/)
    ["integrators", "model", "stepper"],             # time integrators, contact-point model, DEM stepper
    ["estimates", "stability"],                      # step heuristics, measured stability limits
    ["io"],                                          # reading inputs, writing reports
    ["network", "sweep"],                            # contact networks, convergence sweeps
    ["analysis"],                                    # one contact's answer
    ["assembly"],                                    # a packing: particles, walls, laws, contacts
    ["lammps", "system"],                            # LAMMPS' files; the global system and its spectrum
    ["packing"],                                     # a whole packing's answer: analysis, checks, pipeline
    ["distributed"],                                 # the packing answer over MPI ranks
]

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]dtcrit/([^/">]+)/')


def layer_of():
    return {folder: k for k, folders in enumerate(LAYERS) for folder in folders}


def folder_includes(root):
    """{(folder, included folder): [(file, line number, text)]} over every source file of root."""
    edges = {}
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".hpp", ".cpp", ".h", ".cc") or not path.is_file():
            continue
        folder = path.relative_to(root).parts[0]
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            m = INCLUDE.match(line)
            if m and m.group(1) != folder:
                edges.setdefault((folder, m.group(1)), []).append((path, number, line.strip()))
    return edges


def find_cycle(edges):
    """One cycle of the folder graph as a list of folders, or None."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
    state = {}

    def visit(node, trail):
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return trail[trail.index(nxt):] + [nxt] if nxt in trail else [node, nxt]
            if nxt not in state:
                found = visit(nxt, trail + [nxt])
                if found:
                    return found
        state[node] = "done"
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start, [start])
            if found:
                return found
    return None


def main(argv):
    root = pathlib.Path(argv[1]) if len(argv) > 1 else pathlib.Path(__file__).resolve().parent.parent / "lib" / "dtcrit"
    if not root.is_dir():
        print(f"check_layers: {root} is not a folder", file=sys.stderr)
        return 2
    layer = layer_of()
    problems = []
    folders = sorted(p.name for p in root.iterdir() if p.is_dir())
    for folder in folders:
        if folder not in layer:
            problems.append(f"{root / folder}: folder not in any layer (tools/check_layers.py LAYERS, ARCHITECTURE.md)")
    edges = folder_includes(root)
    for (a, b), places in sorted(edges.items()):
        if a not in layer or b not in layer:
            for path, number, text in places:
                problems.append(f"{path}:{number}: {text}: folder '{b if b not in layer else a}' is in no layer")
        elif layer[b] >= layer[a]:
            for path, number, text in places:
                problems.append(f"{path}:{number}: {text}: {a}/ (layer {layer[a]}) may not include {b}/ (layer {layer[b]})")
    cycle = find_cycle(edges)
    if cycle:
        problems.append("folder cycle: " + " -> ".join(cycle))
    for p in problems:
        print(p)
    if problems:
        print(f"check_layers: {len(problems)} problem(s)")
        return 1
    used = sorted({f"{a} -> {b}" for a, b in edges})
    print(f"check_layers: {len(folders)} folders in {len(LAYERS)} layers, {len(used)} folder dependencies, all downwards, no cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
