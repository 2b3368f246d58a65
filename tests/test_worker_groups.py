"""`make test` runs on two workers without splitting what must stay together.

Under `--dist loadgroup` a worker runs whole groups: the groups tests/conftest.py gives the
collected tests decide which tests may run beside which."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def group_of(item: pytest.Item) -> str:
    mark = item.get_closest_marker("xdist_group")
    assert mark is not None, f"{item.nodeid} has no group"
    return str(mark.args[0] if mark.args else mark.kwargs["name"])


def test_make_test_runs_two_workers_that_keep_the_groups():
    recipe = subprocess.run(
        ["make", "-C", str(REPO), "-s", "-n", "-o", "test-install", "-o", "browser-deps", "test"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert "pytest" in recipe and "-n 2" in recipe and "--dist loadgroup" in recipe, recipe


def test_each_module_is_one_group_and_the_ray_tests_are_one(request: pytest.FixtureRequest):
    """Checked on every test collected with this one (under `make test`: all of them)."""
    assert group_of(request.node) == "tests/test_worker_groups.py"
    for item in request.session.items:
        module = item.nodeid.split("::")[0]
        assert group_of(item) == ("ray" if item.get_closest_marker("ray") else module), item.nodeid
