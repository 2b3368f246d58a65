"""The fault suite: `kill -9` (and SIGTERM) of add, enrich, embed and map in the middle
of their work, then: the store is intact (PRAGMA integrity_check, foreign keys, the
full-text index and list membership consistent), no process of the command is left
running, and running the same command again finishes the job.

The fast part runs in CI (one kill per stage, a 1,200-paper synthetic list, 2 worker
processes forced with PAPERATLAS_WORKERS so the pool is exercised). `make faults` runs
the long matrix: PAPERATLAS_FAULTS=full, 4,000 papers (enrich's pool starts by itself),
several kill points per command, kills repeated on the same store before it resumes.
The table of kills, intact stores, orphans and resumes is printed at the end.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import time
from pathlib import Path

import pytest

import faultkit as fk

FULL = os.environ.get("PAPERATLAS_FAULTS", "") == "full"
N_PAPERS = 4000 if FULL else 1200  # 1200: 3 batches of enrich (the last one after the others)
ENV = {"PAPERATLAS_WORKERS": "2"} if not FULL else {}
RESULTS: list[fk.KillResult] = []

# every test runs the CLI in processes it kills and resumes: minutes, not seconds
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", autouse=True)
def table(request):
    """Print the suite's table after the last test of this module."""
    yield
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    text = fk.format_table(RESULTS)
    if reporter is not None and capture is not None:
        with capture.global_and_fixture_disabled():  # shown on a passing run too
            reporter.write_sep("-", f"fault suite ({N_PAPERS} papers, {'full' if FULL else 'fast'})")
            reporter.write_line(text)
    out = os.environ.get("PAPERATLAS_FAULTS_TABLE")
    if out:
        Path(out).write_text(text + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def stages(tmp_path_factory) -> dict[str, Path]:
    """A list file and template stores after each stage: added, enriched, embedded."""
    base = tmp_path_factory.mktemp("faults")
    paper_list = fk.write_list(base / "papers.jsonl", fk.synthetic_papers(N_PAPERS))
    added = base / "added.db"
    assert fk.run_cli("add", paper_list, "--no-enrich", "--db", added).returncode == 0
    enriched = base / "enriched.db"
    shutil.copy(added, enriched)
    assert fk.run_cli("enrich", "--db", enriched, env=ENV).returncode == 0
    embedded = base / "embedded.db"
    shutil.copy(enriched, embedded)
    # one model: the stage's kill and resume are the same for each (test_embed_store.py
    # interrupts the default run, which embeds every model search uses, in its last model)
    assert fk.run_cli("embed", "--model", "static", "--db", embedded).returncode == 0
    return {"list": paper_list, "added": added, "enriched": enriched, "embedded": embedded}


def _copy(template: Path, tmp_path: Path) -> Path:
    db = tmp_path / "atlas.db"
    shutil.copy(template, db)
    return db


def _record(result: fk.KillResult, resumed: bool) -> fk.KillResult:
    result.resumed = resumed
    RESULTS.append(result)
    return result


def _assert_clean(result: fk.KillResult) -> None:
    assert result.killed, f"{result.command} finished before the kill point {result.point}"
    assert not result.orphans, f"processes left after killing {result.command}: {result.orphans}"
    assert not result.problems, result.problems
    assert result.resumed


def _between(table: str, low: int, high: int):
    return lambda counts, elapsed: low < counts.get(table, 0) < high


def _after(seconds: float):
    return lambda counts, elapsed: elapsed >= seconds


# -- add ------------------------------------------------------------------------------------

ADD_POINTS = [
    ("mid-enrichment, kill -9", lambda: _between("facts", 0, N_PAPERS), signal.SIGKILL),
    ("mid-enrichment, SIGTERM", lambda: _between("facts", 0, N_PAPERS), signal.SIGTERM),
]
if FULL:
    ADD_POINTS += [
        ("start (1.0 s)", lambda: _after(1.0), signal.SIGKILL),
        ("ingest (2.5 s)", lambda: _after(2.5), signal.SIGKILL),
        ("ingest (2.5 s), SIGTERM", lambda: _after(2.5), signal.SIGTERM),
        ("late enrichment", lambda: _between("facts", N_PAPERS // 2, N_PAPERS), signal.SIGKILL),
    ]


@pytest.mark.parametrize("point, until, sig", ADD_POINTS, ids=[p for p, _, _ in ADD_POINTS])
def test_kill_add_then_add_again_finishes(tmp_path, stages, point, until, sig):
    db = tmp_path / "atlas.db"
    result = fk.kill_during(
        ["add", stages["list"], "--db", db], db, until(), sig=sig, env=ENV, name="add", point=point
    )
    if sig == signal.SIGTERM and result.killed:  # unwound like Ctrl-C: exit 143
        assert result.returncode == 143
    again = fk.run_cli("add", stages["list"], "--db", db, env=ENV)
    counts = fk.store_counts(db)
    _record(result, again.returncode == 0 and counts["papers"] == N_PAPERS and counts["facts"] == N_PAPERS)
    assert again.returncode == 0, again.stderr
    assert counts["papers"] == N_PAPERS == counts["list_members"]
    assert counts["facts"] == N_PAPERS, "the second add did not finish the enrichment"
    _assert_clean(result)


# -- enrich ---------------------------------------------------------------------------------

ENRICH_POINTS = [
    ("first batches, kill -9", signal.SIGKILL, 0.0),
    ("first batches, SIGTERM", signal.SIGTERM, 0.0),
]
if FULL:
    ENRICH_POINTS += [
        ("half, kill -9", signal.SIGKILL, 0.5),
        ("late, kill -9", signal.SIGKILL, 0.8),
        ("half, SIGTERM", signal.SIGTERM, 0.5),
    ]


@pytest.mark.parametrize("point, sig, share", ENRICH_POINTS, ids=[p for p, _, _ in ENRICH_POINTS])
def test_kill_enrich_no_orphans_and_resume(tmp_path, stages, point, sig, share):
    db = _copy(stages["added"], tmp_path)
    result = fk.kill_during(
        ["enrich", "--db", db],
        db,
        _between("facts", int(N_PAPERS * share), N_PAPERS),
        sig=sig,
        env=ENV,
        name="enrich",
        point=point,
    )
    assert result.children_at_kill, "enrich ran no worker processes: the pool went untested"
    if sig == signal.SIGTERM:  # unwound like Ctrl-C: one line, exit 143
        assert result.returncode == 143
    again = fk.run_cli("enrich", "--db", db, env=ENV)
    counts = fk.store_counts(db)
    done = result.counts_at_kill.get("facts", 0)
    _record(result, again.returncode == 0 and counts["facts"] == N_PAPERS)
    assert again.returncode == 0, again.stderr
    redone = re.search(r"enriched (\d+) of (\d+)", again.stdout)
    assert redone and int(redone.group(2)) == N_PAPERS, again.stdout
    assert int(redone.group(1)) <= N_PAPERS - done  # finished batches were kept
    assert counts["facts"] == N_PAPERS
    _assert_clean(result)


# -- embed ----------------------------------------------------------------------------------

EMBED_POINTS = [("mid-run", 0.0)]
if FULL:
    EMBED_POINTS += [("half", 0.5), ("late", 0.75)]


@pytest.mark.parametrize("point, share", EMBED_POINTS, ids=[p for p, _ in EMBED_POINTS])
def test_kill_embed_then_resume(tmp_path, stages, point, share):
    db = _copy(stages["enriched"], tmp_path)
    result = fk.kill_during(
        ["embed", "--model", "static", "--db", db],
        db,
        _between("embeddings", int(N_PAPERS * share), N_PAPERS),
        name="embed",
        point=point,
    )
    kept = result.counts_at_kill.get("embeddings", 0)
    again = fk.run_cli("embed", "--model", "static", "--db", db)
    counts = fk.store_counts(db)
    _record(result, again.returncode == 0 and counts["embeddings"] == N_PAPERS)
    assert again.returncode == 0, again.stderr
    assert counts["embeddings"] == N_PAPERS
    unchanged = re.search(r"unchanged (\d+)", again.stdout)
    assert unchanged and int(unchanged.group(1)) >= kept > 0, again.stdout  # kept, not redone
    _assert_clean(result)


# -- map ------------------------------------------------------------------------------------

# (point, seconds after the start; None: three quarters of an uninterrupted map here, so the
# kill lands while the map is building on a machine of any speed)
MAP_POINTS: list[tuple[str, float | None]] = [("building (2 s)", 2.0)]
if FULL:
    MAP_POINTS += [("start (1 s)", 1.0), ("building (late)", None)]


@pytest.fixture(scope="module")
def map_seconds(stages, tmp_path_factory) -> float:
    """How long an uninterrupted `map` of the fault list takes on this machine."""
    db = _copy(stages["embedded"], tmp_path_factory.mktemp("map-timed"))
    started = time.monotonic()
    run = fk.run_cli("map", "--db", db)
    assert run.returncode == 0, run.stderr
    return time.monotonic() - started


@pytest.mark.parametrize("point, seconds", MAP_POINTS, ids=[p for p, _ in MAP_POINTS])
def test_kill_map_then_resume(tmp_path, stages, point, seconds, request):
    if seconds is None:
        seconds = 0.75 * request.getfixturevalue("map_seconds")
    db = _copy(stages["embedded"], tmp_path)
    result = fk.kill_during(["map", "--db", db], db, _after(seconds), name="map", point=point)
    again = fk.run_cli("map", "--db", db)
    counts = fk.store_counts(db)
    _record(result, again.returncode == 0 and counts["maps"] == 1 and counts["paper_topics"] == N_PAPERS)
    assert again.returncode == 0, again.stderr
    assert "built" in again.stdout
    assert counts["maps"] == 1 and counts["paper_topics"] == N_PAPERS
    _assert_clean(result)


# -- repeated kills on one store (long matrix only adds more of them) -----------------------

REPEATS = 4 if FULL else 2


def test_repeated_kills_of_add_converge(tmp_path, stages):
    """Kill `add` again and again at growing points: every store in between is intact,
    and one uninterrupted run finishes."""
    db = tmp_path / "atlas.db"
    for i in range(REPEATS):
        result = fk.kill_during(
            ["add", stages["list"], "--db", db],
            db,
            _after(1.5 + 1.5 * i),
            env=ENV,
            name="add (repeated)",
            point=f"{1.5 + 1.5 * i:.1f} s",
        )
        RESULTS.append(result)
        assert not result.orphans and not result.problems, (result.orphans, result.problems)
    again = fk.run_cli("add", stages["list"], "--db", db, env=ENV)
    counts = fk.store_counts(db)
    assert again.returncode == 0, again.stderr
    assert counts["papers"] == N_PAPERS and counts["facts"] == N_PAPERS
    for r in RESULTS[-REPEATS:]:
        r.resumed = True
