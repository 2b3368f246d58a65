"""Seconds each test module took in a measured run, for the order `make test` hands them out in.

    .venv/bin/python -m pytest -q -n 2 --dist loadfile --junitxml run.xml
    .venv/bin/python benchmarks/module_seconds.py run.xml [--out tests/module_seconds.json]

Sums each module's test times (set-up, call and tear-down: pytest's junit report) and writes
them, longest first, to the file tests/conftest.py reads: under xdist it hands out the
longest modules first, so that the run does not end with one worker on a long module and
the other idle. Rerun it after a module's time changes a lot; a module missing from the
file is weighed by its number of tests.
"""

from __future__ import annotations

import argparse
import json
import xml.etree.ElementTree as ET
from collections import Counter
from datetime import date
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def module_path(classname: str) -> str:
    """`tests.test_web_app` or `tests.test_web_app.TestPages` -> `tests/test_web_app.py`."""
    parts = classname.split(".")
    for end in range(len(parts), 0, -1):
        path = "/".join(parts[:end]) + ".py"
        if (REPO / path).is_file():
            return path
    raise SystemExit(f"no test module for {classname!r} under {REPO}")


def module_seconds(junit: Path) -> dict[str, float]:
    seconds: Counter[str] = Counter()
    for case in ET.parse(junit).getroot().iter("testcase"):
        seconds[module_path(case.get("classname", ""))] += float(case.get("time", 0))
    return {module: round(s, 1) for module, s in seconds.most_common()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("junit", type=Path, help="pytest's --junitxml report of a whole run")
    parser.add_argument("--out", type=Path, default=REPO / "tests" / "module_seconds.json")
    args = parser.parse_args()
    seconds = module_seconds(args.junit)
    args.out.write_text(
        json.dumps({"measured": date.today().isoformat(), "seconds": seconds}, indent=1) + "\n",
        encoding="utf-8",
    )
    print(f"{len(seconds)} modules, {sum(seconds.values()):.0f} s, written to {args.out}")


if __name__ == "__main__":
    main()
