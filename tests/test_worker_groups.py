"""`make test` runs on two workers without splitting a test module: its module fixtures
are built once and its tests, some of which build on earlier ones, run in order; the
longest modules are handed out first."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from module_order import longest_modules_first, measured_seconds

REPO = Path(__file__).resolve().parent.parent


def make_test_recipe() -> str:
    """The command `make test` runs, its installs left out, with this interpreter's venv."""
    skip_installs = ["-o", "test-install", "-o", "browser-deps"]
    return subprocess.run(
        ["make", "-C", str(REPO), "-s", "-n", *skip_installs, f"BIN={Path(sys.executable).parent}", "test"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def test_make_test_runs_pytest_on_two_workers():
    recipe = make_test_recipe()
    assert "pytest" in recipe and "-n 2" in recipe, recipe


@pytest.mark.slow  # starts a pytest with two worker processes
def test_make_test_runs_a_modules_tests_on_one_worker():
    """xdist's default scheduling hands out single tests: a module's would be split."""
    command = make_test_recipe() + " -vv -p no:cacheprovider tests/test_text.py"
    run = subprocess.run(["bash", "-c", command], cwd=REPO, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-2000:]
    workers = re.findall(r"^\[(gw\d)\].*PASSED tests/test_text\.py", run.stdout, re.MULTILINE)
    passed = re.search(r"(\d+) passed", run.stdout)
    assert passed and int(passed.group(1)) > 1, run.stdout[-2000:]
    # every test of the module passed, each on the same worker
    assert len(workers) == int(passed.group(1)) and len(set(workers)) == 1, run.stdout[-2000:]


def test_make_test_hands_modules_out_in_the_order_the_workers_collect():
    # xdist's default reorders the modules by their number of tests, whatever conftest did
    assert "--no-loadscope-reorder" in make_test_recipe()


def test_the_longest_modules_go_first_and_each_keeps_its_tests_in_order():
    nodeids = [
        "tests/test_many.py::test_a",
        "tests/test_many.py::test_b",
        "tests/test_many.py::test_c",
        "tests/test_long.py::test_only",
        "tests/test_new.py::test_x",
        "tests/test_new.py::test_y",
    ]
    seconds = {"tests/test_many.py": 3.0, "tests/test_long.py": 90.0, "tests/test_gone.py": 500.0}
    # test_new.py is not in the file: two tests at the mean of the known ones (93 s / 4 tests)
    assert longest_modules_first(nodeids, seconds) == [
        "tests/test_long.py::test_only",
        "tests/test_new.py::test_x",
        "tests/test_new.py::test_y",
        "tests/test_many.py::test_a",
        "tests/test_many.py::test_b",
        "tests/test_many.py::test_c",
    ]


def test_the_measured_seconds_name_only_modules_that_exist():
    # a module renamed or deleted leaves a weight nobody reads: rewrite the file
    # (benchmarks/module_seconds.py) rather than let it go stale
    missing = [module for module in measured_seconds() if not (REPO / module).is_file()]
    assert missing == []


def test_openmp_threads_sleep_while_they_wait():
    """Two workers share two cores: an OpenMP thread (t-SNE, torch) spinning while it waits
    for work takes the core another thread needs. conftest asks OpenMP to let them sleep,
    before any library loads it, and the processes the tests start inherit that."""
    assert os.environ.get("OMP_WAIT_POLICY") == "PASSIVE"
    shown = subprocess.run(
        [sys.executable, "-c", "from sklearn.manifold import _barnes_hut_tsne"],
        env={**os.environ, "OMP_DISPLAY_ENV": "VERBOSE"},  # libgomp lists its settings
        capture_output=True,
        text=True,
        check=True,
    )
    # (unset, libgomp shows the policy as PASSIVE too, but spins 300,000 times a wait)
    assert "GOMP_SPINCOUNT = '0'" in shown.stderr, shown.stderr[-800:]
