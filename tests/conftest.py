"""Fixtures shared by the test modules: the one way to drive the CLI in-process, a fresh store,
a dump of its tables, a ban on network access, the search fixture's papers embedded and the
web tests' atlas (each built once per test run, shared by xdist's workers, copied for each module
that uses it).

Tests that need a real process (signals, kill -9, a server on a port, the installed console
script) start one with subprocess; everything else goes through `cli`, which runs the same
entry point as the `paperatlas` script (`run_app`: exit codes, error lines, usage messages).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# The CLI's rich consoles are made once, at import, and read their width from COLUMNS then:
# set before paperatlas.cli is imported, so tables and paths never wrap whichever test (or
# xdist worker) imports it first.
os.environ["COLUMNS"] = "200"

# OpenMP's threads (sklearn's t-SNE, torch) wait for their next piece of work spinning on a
# core. Beside the other test worker on two cores that spin takes the core the working thread
# needs: a 400-paper t-SNE took 17 CPU-s and 2 minutes at load 19, 0.7 CPU-s when waiting
# threads sleep. Set before any library loads its OpenMP runtime; the processes tests start
# (the CLI, servers) inherit it. It changes how idle threads wait, never what they compute.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


from atlas_fixture import build_fixture_atlas, copy_atlas
from browserkit import browser  # noqa: F401  (the browser tests' one driver a module, a fixture)
from filters_fixture import build_filters_atlas
from module_order import longest_modules_first, measured_seconds
from paperatlas import Atlas
from paperatlas.cli import app
from paperatlas.cli.common import run_app
from paperatlas.store import Store
from paperatlas.web.warmup import PRELOAD_THREAD


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under xdist (`make test`), the longest modules first (module_order.py): each worker
    collects in this order and the scheduler, told `--no-loadscope-reorder`, keeps it."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        by_id = {item.nodeid: item for item in items}
        items[:] = [by_id[nodeid] for nodeid in longest_modules_first(list(by_id), measured_seconds())]


def _load_anyio_now() -> None:
    """anyio (4.16) imports most of its API on first use, and the web app's first static file
    does that from a server thread, where pytest's assertion rewriter parses the module:
    CPython 3.11's ast.parse can fail in two threads at once ("AST constructor recursion depth
    mismatch", seen once in test_web_app). Imported here, in the main thread, before any server
    starts. (Outside pytest a module is compiled without ast.parse: nothing to do there.)"""
    import warnings

    import anyio

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # deprecated aliases warn when read
        for name in dir(anyio):
            getattr(anyio, name)


_load_anyio_now()


# The web app's background preload (paperatlas.web.warmup), started by a server or
# TestClient a test opens, outlives them: it is a daemon thread no shutdown waits for.
PRELOAD_SECONDS = 120  # a preload over the tests' small atlases takes well under a second


@pytest.fixture(autouse=True)
def web_preload_finished() -> Iterator[None]:
    """A test ends when the web preloads it started have: left running, one searches,
    reads and compiles beside the next test in this process, which counts calls,
    patches functions or times itself."""
    yield
    for thread in threading.enumerate():
        if thread.name == PRELOAD_THREAD:
            thread.join(PRELOAD_SECONDS)
            assert not thread.is_alive(), f"a web preload still running after {PRELOAD_SECONDS} s"


class CliRun:
    """Calls `paperatlas ARGS...` in this process; returns (exit code, stdout, stderr).

    `--db <a fresh file under tmp_path>` is appended unless `use_db=False` (commands that take
    no store, or a test that passes its own `--db`). `.db` is that file."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], db: Path):
        self._monkeypatch = monkeypatch
        self._capsys = capsys
        self.db = db

    def __call__(self, *args: object, use_db: bool = True) -> tuple[int, str, str]:
        argv = ["paperatlas", *map(str, args)] + (["--db", str(self.db)] if use_db else [])
        self._monkeypatch.setattr(sys, "argv", argv)
        code = run_app(app)
        out, err = self._capsys.readouterr()
        return code, out, err


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> CliRun:
    monkeypatch.setenv("COLUMNS", "200")  # rich tables unwrapped, whatever the terminal
    return CliRun(monkeypatch, capsys, tmp_path / "atlas.db")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """An empty store in a fresh file, closed after the test."""
    s = Store(tmp_path / "atlas.db")
    yield s
    s.close()


def dump(store: Store) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table (full-text shadow tables aside), to compare a store before and after."""
    tables = [
        r[0]
        for r in store.conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE '%fts%' "
            "AND name NOT LIKE 'sqlite_%'"
        )
    ]
    return {t: sorted(map(tuple, store.conn.execute(f"SELECT * FROM {t}"))) for t in tables}


@pytest.fixture(scope="module")
def no_network() -> Iterator[None]:
    """Any attempt to open a connection fails the test that made it (models load offline)."""

    def refuse(self: object, *args: object, **kwargs: object) -> None:
        raise AssertionError(f"network access attempted: {args}")

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HF_HUB_OFFLINE", "1")
        mp.setattr(socket.socket, "connect", refuse)
        mp.setattr(socket.socket, "connect_ex", refuse)
        mp.setattr(socket, "create_connection", refuse)
        yield


SEARCH_FIXTURE = Path(__file__).parent / "fixtures" / "search" / "papers.jsonl"


def built_once(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """The folder `name`, filled by `build(folder)` once per test run: xdist's workers share
    it (their temporary folders are siblings; the first to come builds it while the others
    wait on a lock, then read it), where each worker would otherwise build its own. Read-only
    to its users: they copy it (`copy_atlas`)."""
    import fcntl

    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder, done = shared / name, shared / f"{name}.done"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)  # a build cut off by a failure
            folder.mkdir()
            build(folder)
            done.touch()
    return folder


@pytest.fixture(scope="session")
def search_atlas_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The search fixture's atlas, built once per test run (embedding its vocabulary is
    seconds of CPU); the modules that use it get copies (`embedded_search_atlas`)."""

    def build(folder: Path) -> None:
        papers = [json.loads(line) for line in SEARCH_FIXTURE.read_text(encoding="utf-8").splitlines()]
        path = folder / "papers.jsonl"
        path.write_text(
            "".join(json.dumps({k: p[k] for k in ("id", "title", "abstract")}) + "\n" for p in papers),
            encoding="utf-8",
        )
        with Atlas(folder / "atlas.db") as atlas:
            atlas.add([path], list_name="fixture", enrich=False)
            atlas.embed()

    return built_once(tmp_path_factory, "search-atlas-template", build) / "atlas.db"


@pytest.fixture(scope="module")
def embedded_search_atlas(search_atlas_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Atlas:
    """The search fixture's 24 papers (id, title, abstract), embedded by `Atlas.embed()`
    only: static vectors and the English vocabulary for Chinese queries, no use-multilingual
    or MiniLM paper vectors (`paperatlas embed` adds both). One copy per test module."""
    return Atlas(copy_atlas(search_atlas_template, tmp_path_factory, "search-atlas"))


@pytest.fixture(scope="session")
def fixture_atlas_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """atlas_fixture's atlas (added, enriched, embedded, mapped), built once per test run;
    the web tests' modules get copies (`atlas_fixture.web_atlas_db`)."""
    folder = built_once(
        tmp_path_factory, "fixture-atlas-template", lambda f: build_fixture_atlas(f / "atlas.db").close()
    )
    return folder / "atlas.db"


@pytest.fixture(scope="session")
def filters_atlas_template(fixture_atlas_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """filters_fixture's atlas (the fixture atlas with a second list, tags, states and likes),
    built once per test run; the filter tests' modules get copies (`copy_atlas`)."""
    folder = built_once(
        tmp_path_factory,
        "filters-atlas-template",
        lambda f: build_filters_atlas(f / "atlas.db", fixture_atlas_template),
    )
    return folder / "atlas.db"
