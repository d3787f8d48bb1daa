#!/usr/bin/env python3
"""The engine's folder graph, measured from its #include lines, against the
README's stage table.

Fails when a folder of engine/src includes the session facade (t2n/session.h),
when the folders include each other in a cycle, or when the README's
"depends on" column differs from what the includes say (the table then cannot
drift). Prints the measured table rows on a mismatch, ready to paste.

usage: check_stage_deps.py REPO_ROOT
"""
import re
import sys
from pathlib import Path

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def measure(src: Path):
    """folder -> set of folders it includes; and the facade's includers."""
    folders = sorted(p.name for p in src.iterdir() if p.is_dir())
    deps = {f: set() for f in folders}
    facade = []
    for f in folders:
        for file in sorted((src / f).rglob("*")):
            if file.suffix not in (".h", ".cpp"):
                continue
            for inc in INCLUDE.findall(file.read_text(encoding="utf-8")):
                if inc == "t2n/session.h":
                    facade.append(str(file.relative_to(src)))
                head = inc.split("/", 1)[0]
                if "/" in inc and head in deps and head != f:
                    deps[f].add(head)
    return deps, facade


def cycle(deps):
    """One cycle as a list of folders, or None."""
    state = {}
    stack = []

    def visit(f):
        state[f] = "open"
        stack.append(f)
        for g in sorted(deps[f]):
            if state.get(g) == "open":
                return stack[stack.index(g):] + [g]
            if g not in state:
                found = visit(g)
                if found:
                    return found
        stack.pop()
        state[f] = "done"
        return None

    for f in sorted(deps):
        if f not in state:
            found = visit(f)
            if found:
                return found
    return None


def readme_table(readme: Path):
    """folder -> set of folders from the README's stage table."""
    table = {}
    row = re.compile(r"^\|[^|]*\|\s*`([a-z_]+)/`\s*\|[^|]*\|([^|]*)\|\s*$")
    for line in readme.read_text(encoding="utf-8").splitlines():
        m = row.match(line)
        if m:
            cell = m.group(2).strip()
            table[m.group(1)] = set() if cell in ("—", "-", "") else {
                d.strip() for d in cell.split(",")}
    return table


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    deps, facade = measure(root / "engine" / "src")
    problems = []
    for file in facade:
        problems.append(f"{file} includes the facade t2n/session.h (a stage never does)")
    loop = cycle(deps)
    if loop:
        problems.append("folder cycle: " + " -> ".join(loop))
    table = readme_table(root / "README.md")
    for f in sorted(set(deps) | set(table)):
        if f not in deps:
            problems.append(f"README lists {f}/, which engine/src does not have")
        elif f not in table:
            problems.append(f"engine/src/{f}/ has no row in README's stage table")
        elif table[f] != deps[f]:
            problems.append(f"README says {f}/ depends on {', '.join(sorted(table[f])) or 'nothing'}; "
                            f"its includes say {', '.join(sorted(deps[f])) or 'nothing'}")
    for f in sorted(deps):
        print(f"{f:10} -> {', '.join(sorted(deps[f])) or '—'}")
    if problems:
        print("\n".join(["", "FAILED:"] + problems))
        return 1
    print("stage table matches the includes; no cycle; no stage includes the facade")
    return 0


if __name__ == "__main__":
    sys.exit(main())
