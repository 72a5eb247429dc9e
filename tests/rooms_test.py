#!/usr/bin/env python3
"""Dependencies between the harness's rooms point one way (docs/architecture.md).

A file may include headers of its own room and of rooms below it, never of a
room above. The rooms, bottom to top:

    base < gpu < scenario < kernel < sandbox < ddi < rules < oracle < vidmm < exec < triage < certify < report < bench

and above all of them the front ends, cli/ and fuzz/. Below the harness,
reference/ and targets/ (builders) include only include/ and each other:
a builder never includes a harness header. Nothing outside cli/ and fuzz/
includes their headers.

Usage: rooms_test.py SOURCE_DIR     check the tree, print every violation
       rooms_test.py --self-test    show that the check fails on a tree with
                                    an upward include (and passes without it)

Proof that the check can fail, by hand:
    sed -i '1i #include "certify/certify.h"' harness/gpu/mem.c
    tests/rooms_test.py .        # exit 1: harness/gpu/mem.c:1 gpu includes certify/certify.h
    git checkout harness/gpu/mem.c
"""
import os
import re
import sys
import tempfile

ROOMS = ["base", "wire", "gpu", "scenario", "kernel", "sandbox", "ddi", "rules", "oracle", "vidmm", "exec", "triage", "certify", "report", "bench"]
FRONT = ["cli", "fuzz"]
BUILDERS = ["reference", "targets"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(rel):
    """(kind, rank) of a source file by its path relative to the tree."""
    parts = rel.split(os.sep)
    if parts[0] == "harness" and len(parts) > 2 and parts[1] in ROOMS:
        return "room", ROOMS.index(parts[1])
    if parts[0] == "harness":
        return "stray", None
    if parts[0] in FRONT:
        return "front", len(ROOMS)
    if parts[0] in BUILDERS:
        return "builder", -1
    return None, None


def check(root):
    problems = []
    for top in ["harness"] + FRONT + BUILDERS:
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith((".c", ".h", ".cpp")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                kind, rank = layer_of(rel)
                if kind == "stray":
                    problems.append(f"{rel}: harness sources live in a room ({', '.join(ROOMS)})")
                    continue
                with open(path, encoding="utf-8", errors="replace") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        inc = m.group(1)
                        head = inc.split("/")[0]
                        where = f"{rel}:{lineno}"
                        if head in ROOMS:
                            if kind == "builder":
                                problems.append(f"{where} a builder includes harness header {inc}")
                            elif kind == "room" and ROOMS.index(head) > rank:
                                problems.append(f"{where} {ROOMS[rank]} includes {inc}, a room above it")
                        elif kind != "front" and os.path.isfile(os.path.join(root, "cli", inc)):
                            problems.append(f"{where} includes {inc} from cli/")
    return problems


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "harness", "gpu"))
        os.makedirs(os.path.join(root, "harness", "certify"))
        mem = os.path.join(root, "harness", "gpu", "mem.c")
        with open(mem, "w") as f:
            f.write('#include "base/util.h"\n')
        with open(os.path.join(root, "harness", "certify", "certify.h"), "w") as f:
            f.write('#include "gpu/gpu.h"\n')
        clean = check(root)
        with open(mem, "a") as f:
            f.write('#include "certify/certify.h"\n')
        dirty = check(root)
    ok = not clean and len(dirty) == 1 and "a room above it" in dirty[0]
    print("self-test:", "ok" if ok else f"FAILED (clean: {clean}, with upward include: {dirty})")
    return 0 if ok else 1


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    problems = check(sys.argv[1])
    for p in problems:
        print(p)
    print(f"rooms: {len(problems)} upward or stray include(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
