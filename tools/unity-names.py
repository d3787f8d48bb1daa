#!/usr/bin/env python3
"""Checks that the unity-built targets' sources can share one translation unit.

Usage: tools/unity-names.py BUILD_DIR [TARGET ...]

T2N_UNITY_BUILD compiles each target in batches of T2N_UNITY_BATCH sources. A new
file moves every later batch boundary, so two files that never met may meet in the
next commit, and a name both define in an anonymous namespace (a helper, a constant,
a `using` in the enclosing namespace) then breaks the build. This compiles each
target's sources as a single unit with -fsyntax-only, using the flags of BUILD_DIR's
compile_commands.json (any configuration: unity or not), and prints the clashes.
Default targets: t2n_plain t2n t2n_ui t2n_cli t2n_ui_tests. Exit 1 on any error
or warning.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

DEFAULT = ["t2n_plain", "t2n", "t2n_ui", "t2n_cli", "t2n_ui_tests"]


def sources_and_flags(commands, target):
    marker = "/CMakeFiles/%s.dir/" % target
    files, flags = [], None
    for e in commands:
        out = e.get("output", "") or e["command"]
        if marker not in "/" + out and marker not in e["command"]:
            continue
        f = e["file"]
        if "_autogen" in f or "/qrc_" in f or f.endswith("cmake_pch.hxx.cxx"):
            continue
        if "/Unity/unity_" in f:  # a unity tree: its batches name the sources
            files += re.findall(r'#include "(.*)"', open(f).read())
        else:
            files.append(f)
        if flags is None:
            flags = (e["command"], e["directory"])
        else:  # a source's own include paths and definitions join the unit's
            extra = [a for a in shlex.split(e["command"])
                     if a.startswith(("-I", "-D")) and a not in flags[0]]
            flags = (flags[0] + "".join(" " + shlex.quote(a) for a in extra), flags[1])
    return files, flags


def check(build, target, commands):
    files, flags = sources_and_flags(commands, target)
    if not files:
        print("unity-names: %s: no sources in %s/compile_commands.json" % (target, build))
        return True
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
        target, len(files), "clean" if not found and proc.returncode == 0 else
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
