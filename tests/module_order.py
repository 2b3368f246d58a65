"""The order `make test`'s two workers take the test modules in: the longest first.

xdist's `--dist loadfile` hands a worker a whole module at a time, by default the modules
with the most tests first. A long module of few tests (a fresh process compiling UMAP, a
Ray cluster) then comes last, and one worker runs it while the other has nothing left to
do. Ordered by the seconds each module took in a measured run (module_seconds.json,
written by benchmarks/module_seconds.py) and handed out in that order
(`--no-loadscope-reorder`), the workers end close together; a module not in the file is
weighed by its number of tests at the mean seconds a test of the modules that are.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

SECONDS_FILE = Path(__file__).with_name("module_seconds.json")


def measured_seconds() -> dict[str, float]:
    """Each module's seconds in the measured run (`tests/test_x.py` -> seconds)."""
    return json.loads(SECONDS_FILE.read_text(encoding="utf-8"))["seconds"]


def longest_modules_first(nodeids: list[str], seconds: dict[str, float]) -> list[str]:
    """`nodeids` with their modules longest first; a module's tests keep their order."""
    counts = Counter(nodeid.split("::", 1)[0] for nodeid in nodeids)
    known = [module for module in counts if module in seconds]
    per_test = sum(seconds[m] for m in known) / max(1, sum(counts[m] for m in known))

    def weight(module: str) -> float:
        return seconds.get(module, counts[module] * per_test)

    # a stable sort on the module's weight alone keeps each module's tests in their order
    return sorted(nodeids, key=lambda nodeid: -weight(nodeid.split("::", 1)[0]))
