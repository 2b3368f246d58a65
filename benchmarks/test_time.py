"""`make test` of this tree and of another (the starting code), each in a fresh copy, in one run.

    .venv/bin/python benchmarks/test_time.py --base /work/base [--venv .venv] [--first base] [-- PYTEST ARGS]

Each tree's committed HEAD is exported (`git archive`) to a new folder, and the recipe of
its own Makefile's `test` target (`make -n test`, its prerequisites, the installs, taken as
done) runs there with the venv given (the same for both) and the copy's src first on
PYTHONPATH; the trees run one after the other, never beside each other. Printed for each:
wall seconds, CPU seconds (user + sys of pytest and of every process it waited for: xdist's
workers, the tests' child processes), the exit status and pytest's last line; then the
ratios. Both run as on a machine whose Python writes its bytecode (PYTHONDONTWRITEBYTECODE
emptied: a shell that sets it makes every child process and worker compile every module it
imports, a cost that grows with the number of modules and that no usual setup pays).
Arguments after `--` are added to both pytest commands (a selection, for a quick check). Run `uptime` beside it: the load before and after each tree is printed too.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from scale import run_popen_wait4

REPO = Path(__file__).resolve().parents[1]


def export(tree: Path, into: Path) -> str:
    """The tree's committed HEAD as plain files in `into`; returns the commit."""
    into.mkdir(parents=True)
    commit = subprocess.run(
        ["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], check=True, capture_output=True, text=True
    ).stdout.strip()
    archive = subprocess.Popen(["git", "-C", str(tree), "archive", "HEAD"], stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", str(into)], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        raise SystemExit(f"git archive of {tree} failed")
    return commit


def make_test_recipe(copy: Path, venv: Path) -> str:
    """What `make test` runs in `copy`, with the venv's path in it and the installs left out."""
    return subprocess.run(
        [
            "make",
            "-C",
            str(copy),
            "-s",
            "-n",
            "-o",
            "test-install",
            "-o",
            "browser-deps",
            f"VENV={venv}",
            "test",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def run_tests(copy: Path, venv: Path, extra: list[str]) -> dict:
    recipe = make_test_recipe(copy, venv)
    command = " ".join([recipe, *(f"'{a}'" for a in extra)])
    load_before = os.getloadavg()[0]
    result = run_popen_wait4(
        ["bash", "-c", command],
        env={"PYTHONPATH": str(copy / "src"), "PYTHONDONTWRITEBYTECODE": ""},
        cwd=copy,
        check=False,
    )
    result["load"] = (load_before, os.getloadavg()[0])
    result["command"] = command
    lines = [line for line in result["out"].splitlines() if line.strip()]
    result["last"] = lines[-1] if lines else result["err"].strip()[-300:]
    return result


def main() -> None:
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, required=True, help="the other tree (a git checkout)")
    ap.add_argument("--venv", type=Path, default=REPO / ".venv", help="the venv both run with")
    ap.add_argument("--first", choices=("this", "base"), default="this", help="which tree runs first")
    ap.add_argument("--work", type=Path, help="folder for the two copies (default: a new temp folder)")
    args = ap.parse_args(argv[: argv.index("--")] if "--" in argv else argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="pa-test-time-"))
    venv = args.venv.resolve()
    trees = {"this": REPO, "base": args.base.resolve()}
    order = ("this", "base") if args.first == "this" else ("base", "this")
    results = {}
    for name in order:
        copy = work / name
        commit = export(trees[name], copy)
        r = run_tests(copy, venv, extra)
        results[name] = r
        print(f"{name} ({trees[name]} at {commit}): {r['command']}", flush=True)
        print(
            f"  wall {r['s']:.1f} s, CPU {r['cpu_s']:.1f} s, exit {r['rc']}, load {r['load'][0]:.1f} -> "
            f"{r['load'][1]:.1f}: {r['last']}",
            flush=True,
        )
    mine, other = results["this"], results["base"]
    print(f"this / base: wall {mine['s'] / other['s']:.2f}x, CPU {mine['cpu_s'] / other['cpu_s']:.2f}x")


if __name__ == "__main__":
    main()
