#!/usr/bin/env python3
"""Checks that the unity-built targets' sources can share one translation unit.

Usage: tools/unity-names.py BUILD_DIR [TARGET ...]

T2N_UNITY_BUILD compiles each target in batches of T2N_UNITY_BATCH sources. A new
file moves every later batch boundary, so two files that never met may meet in the
next commit, and a name both define in an anonymous namespace (a helper, a constant,
a `using` in the enclosing namespace) then breaks the build. This compiles each
target's sources as a single unit with -fsyntax-only, using the flags of BUILD_DIR's
compile_commands.json (any configuration: unity or not), and prints the clashes.
Default targets: t2n_plain t2n t2n_ui t2n_cli t2n_ui_tests t2n_tests. Exit 1 on any
error or warning.

A target built in named unity groups (UNITY_BUILD_MODE GROUP: t2n_tests's
pass_suites_N, suites_N and light_suites_N) is checked family by family, each
family's files as one unit, and its sources outside any group are left alone:
they are never compiled together. Such a target is checked only in a unity tree (elsewhere its
groups are unknown, and it is skipped with a note).
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

DEFAULT = ["t2n_plain", "t2n", "t2n_ui", "t2n_cli", "t2n_ui_tests", "t2n_tests"]
# Targets whose unity build is in named groups, not in batches of the whole.
GROUPED = {"t2n_tests"}


def sources_and_flags(commands, target):
    """{family: (files, (command, directory))}: one family, "", for a target
    in batches or not in unity at all; one per group name for a grouped one."""
    marker = "/CMakeFiles/%s.dir/" % target
    families = {}
    plain = []
    for e in commands:
        out = e.get("output", "") or e["command"]
        if marker not in "/" + out and marker not in e["command"]:
            continue
        f = e["file"]
        if "_autogen" in f or "/qrc_" in f or f.endswith("cmake_pch.hxx.cxx"):
            continue
        batch = re.search(r"/Unity/unity_(?:(\w+?)_)?\d+_cxx\.cxx$", f)
        if batch:  # a unity tree: its batches name the sources
            family = batch.group(1) or ""
            files = re.findall(r'#include "(.*)"', open(f).read())
        else:
            family, files = None, [f]
        if family is None:
            plain.append((files, e))
            continue
        add(families, family, files, e)
    grouped = any(k for k in families)
    if not grouped:  # batches of the whole target, or no unity: one unit
        for files, e in plain:
            add(families, "", files, e)
    return families


def add(families, family, files, e):
    got, flags = families.get(family, ([], None))
    got = got + files
    if flags is None:
        flags = (e["command"], e["directory"])
    else:  # a source's own include paths and definitions join the unit's
        extra = [a for a in shlex.split(e["command"])
                 if a.startswith(("-I", "-D")) and a not in flags[0]]
        flags = (flags[0] + "".join(" " + shlex.quote(a) for a in extra), flags[1])
    families[family] = (got, flags)


def check(build, target, commands):
    families = sources_and_flags(commands, target)
    if not families:
        print("unity-names: %s: no sources in %s/compile_commands.json" % (target, build))
        return True
    if target in GROUPED and "" in families:
        print("unity-names: %s: not a unity tree, its groups are unknown: skipped" % target)
        return True
    return all([check_unit(target + (" " + k if k else ""), files, flags)
                for k, (files, flags) in sorted(families.items())])


def check_unit(name, files, flags):
    args, skip = [], False
    for a in shlex.split(flags[0]):
        if skip:
            skip = False
        elif a in ("-o", "-MF", "-MT", "-c"):
            skip = True
        elif a != "-MD" and not a.endswith("ccache") and not a.endswith((".cpp", ".cxx")):
            args.append(a)
    with tempfile.NamedTemporaryFile("w", suffix=".cxx", delete=False) as unit:
        unit.writelines('#include "%s"\n' % f for f in files)
    try:
        proc = subprocess.run(args + ["-fsyntax-only", "-fmax-errors=50", unit.name],
                              cwd=flags[1], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    finally:
        os.unlink(unit.name)
    found = [l for l in proc.stdout.splitlines() if " error: " in l or " warning: " in l]
    print("unity-names: %s: %d sources as one unit: %s" % (
        name, len(files), "clean" if not found and proc.returncode == 0 else
        "%d problem(s)" % len(found)))
    for line in found:
        print("  " + line)
    return not found and proc.returncode == 0


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    build = sys.argv[1]
    commands = json.load(open(os.path.join(build, "compile_commands.json")))
    ok = all([check(build, t, commands) for t in (sys.argv[2:] or DEFAULT)])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
