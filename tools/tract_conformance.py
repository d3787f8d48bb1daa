#!/usr/bin/python3
"""Runs real tract on the archives t2n wrote and publishes the verdicts.

Usage:
    /usr/bin/python3 tools/tract_conformance.py --tract TRACT --build BUILD
        [--realworld ../shared/realworld] [--t2n BUILD/bin/t2n] [--page docs/tract-conformance.md]
        [--only REGEX] [--jobs 1]

Two sets of archives:
  1. the export fixtures of the test suite (BUILD/test-work/export_fixtures, written by the
     export_fixtures suite: run it first), each checked by tract against its own
     BUILD/fixtures/NAME.io.npz, exactly as a user would run tract on it:
         TRACT ARCHIVE --nnef-tract-core --nnef-tract-pulse --nnef-tract-extra
               --nnef-tract-transformers [--nnef-tract-onnx] [--nnef-tract-resource]
               -O run --input-from-bundle IO --assert-output-bundle IO
               --allow-float-casts --approx approximate
     (an archive whose own check failed, or that t2n refused, is listed as such);
  2. the genuine files of --realworld, exported by `t2n export FILE [MANIFEST inputs]
     --tract-bin TRACT`: t2n's own check, then tract's run of the same archive.
The page says, per archive, the tract version it ran in, the verdict and tract's last
lines where it failed, with the date and t2n's commit. tract is never built or fetched
here: give the path of a tract binary you have.
"""

import argparse
import csv
import datetime
import json
import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def tract_version(tract):
    out = subprocess.run([tract, "--version"], capture_output=True, text=True, timeout=60)
    m = re.search(r"\b(\d+\.\d+\.\d+)\b", out.stdout + out.stderr)
    return m.group(1) if m else "unknown"


def graph_text(archive):
    p = Path(archive)
    if p.is_dir():
        return (p / "graph.nnef").read_text(errors="replace")
    with tarfile.open(p) as t:
        for m in t.getmembers():
            if m.name.rstrip("/").split("/")[-1] == "graph.nnef":
                return t.extractfile(m).read().decode(errors="replace")
    return ""


def last_words(text, n=3):
    lines = [l.strip() for l in text.split("Stack backtrace:")[0].splitlines() if l.strip()]
    lines = [l for l in lines if l != "Caused by:" and "RUST_BACKTRACE" not in l]
    return " / ".join(lines[-n:]).replace("|", "\\|")


def tolerance_level(text):
    """tract's --approx level for the tolerance the export was checked at
    ("approximate", or a fixture's declared "very"); approximate otherwise."""
    levels = ("exact", "close", "approximate", "very", "super", "ultra")
    word = (text or "").split()[0] if text else ""
    return word if word in levels else "approximate"


def run_tract(tract, archive, npz, approx="approximate", timeout=600):
    text = graph_text(archive)
    env = dict(os.environ, RUST_BACKTRACE="0")
    args = [tract, str(archive), "--nnef-tract-core", "--nnef-tract-pulse",
            "--nnef-tract-extra", "--nnef-tract-transformers"]
    if "tract_registry tract_onnx" in text:
        args.append("--nnef-tract-onnx")
    if "tract_registry tract_resource" in text:
        args.append("--nnef-tract-resource")
    args += ["-O", "run", "--input-from-bundle", str(npz), "--assert-output-bundle", str(npz),
             "--allow-float-casts", "--approx", approx]
    try:
        r = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return False, f"timed out after {timeout} s"
    errors = [l for l in r.stderr.splitlines() if "ERROR" in l or "Mismatch" in l]
    if r.returncode == 0 and not errors:
        return True, ""
    return False, last_words(r.stderr) or f"exit status {r.returncode}"


def fixture_rows(args, tract):
    work = Path(args.build) / "test-work" / "export_fixtures"
    fixtures = Path(args.build) / "fixtures"
    if not work.is_dir():
        sys.exit(f"{work} does not exist: run the export_fixtures suite first "
                 f"(cd {args.build} && ctest -R export_fixtures)")
    rows = []
    for report in sorted(work.glob("*.report.json")):
        name = report.name[: -len(".report.json")]
        if args.only and not re.search(args.only, name):
            continue
        data = json.loads(report.read_text())
        archive = Path(data.get("artifact", {}).get("path", ""))
        check = data.get("check", {})
        npz = fixtures / f"{name}.io.npz"
        if not archive.exists():
            rows.append((name, "not exported", data.get("error", "")))
            continue
        if not check.get("passed", False):
            rows.append((name, "t2n's check failed", ""))
            continue
        if not npz.exists():
            rows.append((name, "no io.npz", ""))
            continue
        ok, why = run_tract(tract, archive, npz, approx=tolerance_level(check.get("tolerance")))
        rows.append((name, "passes" if ok else "fails", why))
        print(f"{name}: {rows[-1][1]} {why}", file=sys.stderr)
    return rows


def realworld_rows(args, tract):
    folder = Path(args.realworld)
    manifest = folder / "MANIFEST.tsv"
    if not manifest.exists():
        return []
    out = Path(args.build) / "tract-conformance"
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    with open(manifest, newline="") as f:
        for entry in csv.DictReader(f, delimiter="\t"):
            name = entry["file"]
            if args.only and not re.search(args.only, name):
                continue
            cmd = [args.t2n, "export", str(folder / name), "-o", str(out / f"{name}.nnef.tgz"),
                   "--tract-bin", tract, "--report", str(out / f"{name}.report.json")]
            inputs = entry.get("inputs", "").strip()
            if inputs and inputs != "?":
                for spec in inputs.split():
                    cmd += ["--input", spec]
            try:
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
            except subprocess.TimeoutExpired:
                rows.append((name, "t2n timed out", ""))
                continue
            report = out / f"{name}.report.json"
            tract_line = ""
            check_passed = False
            if report.exists():
                try:
                    data = json.loads(report.read_text())
                    tract_line = data.get("check", {}).get("tract", "")
                    check_passed = bool(data.get("check", {}).get("passed"))
                except json.JSONDecodeError:
                    pass
            if r.returncode == 0:
                verdict = "passes"
            elif tract_line.startswith("tract: failed"):
                verdict = "fails"
            elif not check_passed and "tract: passed" not in tract_line:
                first = next((l for l in r.stderr.splitlines() if "error" in l), "")
                verdict = f"not exported (exit {r.returncode})"
                tract_line = first
            else:
                verdict = f"exit {r.returncode}"
            rows.append((name, verdict, tract_line.replace("|", "\\|")))
            print(f"{name}: {verdict} {tract_line}", file=sys.stderr)
    return rows


def table(rows):
    def cut(text, n=300):
        text = " ".join(text.split())
        return text if len(text) <= n else text[: n - 3] + "..."

    lines = ["| archive | verdict | tract's last lines (or why it was not run) |", "|---|---|---|"]
    lines += [f"| {n} | {v} | {cut(w)} |" for n, v, w in rows]
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tract", required=True)
    p.add_argument("--build", default=str(ROOT / "build"))
    p.add_argument("--t2n")
    p.add_argument("--realworld", default=str(ROOT.parent / "shared" / "realworld"))
    p.add_argument("--page", default=str(ROOT / "docs" / "tract-conformance.md"))
    p.add_argument("--only")
    args = p.parse_args()
    args.t2n = args.t2n or str(Path(args.build) / "bin" / "t2n")
    version = tract_version(args.tract)
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    fixtures = fixture_rows(args, args.tract)
    realworld = realworld_rows(args, args.tract)
    today = datetime.date.today().isoformat()

    def summary(rows):
        ran = [r for r in rows if r[1] in ("passes", "fails")]
        passed = sum(1 for r in ran if r[1] == "passes")
        return f"{passed} of {len(ran)} archives that t2n's check passed also pass in tract"

    page = f"""# The archives in real tract

Measured {today} with t2n at commit {commit} and tract {version} (built from tract's public
source, its own crates unmodified, behind a CLI taking the flags t2n passes), by
`tools/tract_conformance.py`. Every archive is run as a user runs it:
`tract ARCHIVE --nnef-tract-core --nnef-tract-pulse --nnef-tract-extra --nnef-tract-transformers
-O run --input-from-bundle IO.npz --assert-output-bundle IO.npz --allow-float-casts --approx
LEVEL`, LEVEL the tolerance the export's own check used (`approximate`, or the level a fixture
declares with its reason, `very` for inception_v3's 94 layers).

## Export fixtures of the test suite

{summary(fixtures)}.

{table(fixtures)}

## Genuine files (`../shared/realworld`, MANIFEST's inputs, `t2n export --tract-bin`)

{summary(realworld) if realworld else "The folder was not there."}.

{table(realworld) if realworld else ""}
"""
    Path(args.page).write_text(page)
    print(f"wrote {args.page}: fixtures: {summary(fixtures)}; realworld: {summary(realworld)}")


if __name__ == "__main__":
    main()
