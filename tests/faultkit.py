"""Tools for the fault suite (tests/test_faults.py): a synthetic paper list, running a
`paperatlas` command as a real process, killing it at a chosen point, finding the
processes it left, and checking a store after the kill.

Nothing here reads data outside the repository: papers are made from the sentences of the bundled
examples/iclr2026_sample_list.txt, reshuffled (seeded) into new abstracts with titles.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "iclr2026_sample_list.txt"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_WORD = re.compile(r"[A-Za-z][a-z]{4,}")


def sample_sentences() -> list[str]:
    paragraphs = [p.strip() for p in SAMPLE.read_text(encoding="utf-8").split("\n\n")]
    abstracts = [p for p in paragraphs if len(p) > 200]  # the header line is not one
    return [s.strip() for a in abstracts for s in _SENTENCE_END.split(a) if len(s.strip()) > 30]


def synthetic_papers(n: int, seed: int = 0) -> list[dict]:
    """n papers that read like the sample's: 4-8 of its sentences in a new order, a
    title of its words, two authors, every tenth with a code link."""
    rng = random.Random(seed)
    sentences = sample_sentences()
    words = sorted({w.lower() for s in sentences for w in _WORD.findall(s)})
    papers = []
    for i in range(n):
        chosen = rng.sample(sentences, rng.randint(4, 8))
        abstract = " ".join(chosen)
        if i % 10 == 0:
            abstract += f" Code is available at https://github.com/example/project{i}."
        title = " ".join(rng.sample(words, rng.randint(4, 8))).capitalize()
        papers.append(
            {
                "id": f"fault{seed:02d}{i:05d}",
                "title": f"{title} ({i})",
                "abstract": abstract,
                "authors": [f"Author {rng.randint(1, 500)}", f"Author {rng.randint(1, 500)}"],
                "year": 2026,
                "decision": rng.choice(["Accept (Poster)", "Reject"]),
            }
        )
    return papers


def write_list(path: Path, papers: list[dict]) -> Path:
    path.write_text("".join(json.dumps(p) + "\n" for p in papers), encoding="utf-8")
    return path


def cli_command(*args: str) -> list[str]:
    """The real entry point, run by this interpreter (the venv's)."""
    return [sys.executable, "-c", "from paperatlas.cli import main; main()", *map(str, args)]


def run_cli(*args: str, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        cli_command(*args),
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
        cwd=ROOT,
    )


# -- processes ------------------------------------------------------------------------------


def _stat(pid: int) -> tuple[str, int] | None:
    """(state letter, parent pid) of a process, None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1])


def descendants(pid: int) -> set[int]:
    """Every live process below `pid` (children, their children, ...)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = _stat(int(entry))
            if st is not None:
                children.setdefault(st[1], []).append(int(entry))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pids: set[int]) -> set[int]:
    """Those of `pids` still running (a zombie has exited: it only waits to be reaped)."""
    return {p for p in pids if (st := _stat(p)) is not None and st[0] not in ("Z", "X")}


def processes_using(marker: str) -> set[int]:
    """Live processes whose command line contains `marker` (the test's unique db path)."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, UnicodeDecodeError):
            continue
        if marker in cmdline:
            found.add(int(entry))
    return alive(found)


# -- the store, read without writing ----------------------------------------------------------


def store_counts(db: Path) -> dict[str, int]:
    """Row counts of the tables the stages fill (0 where a table is not there yet)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        out = {}
        for table in ("papers", "list_members", "facts", "embeddings"):
            out[table] = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] if table in tables else 0
        for table in ("maps", "paper_topics"):  # the whole atlas's map (scope '*')
            out[table] = (
                conn.execute(f"SELECT count(*) FROM {table} WHERE scope = '*'").fetchone()[0]
                if table in tables
                else 0
            )
        return out
    except sqlite3.DatabaseError:
        return {}
    finally:
        conn.close()


def check_store(db: Path) -> list[str]:
    """Problems with a store after a kill (empty list: intact and consistent)."""
    if not db.exists():
        return []  # killed before it was created: nothing to check
    problems = []
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        result = [r[0] for r in conn.execute("PRAGMA integrity_check")]
        if result != ["ok"]:
            problems.append(f"integrity_check: {result[:3]}")
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "papers" not in tables:
            return problems
        fk = conn.execute("PRAGMA foreign_key_check").fetchall()
        if fk:
            problems.append(f"foreign_key_check: {len(fk)} rows refer to missing papers")
        papers = conn.execute("SELECT count(*) FROM papers").fetchone()[0]
        indexed = conn.execute("SELECT count(*) FROM papers_fts_docsize").fetchone()[0]
        if indexed != papers:
            problems.append(f"full-text index holds {indexed} papers, the store {papers}")
        orphans = conn.execute(
            "SELECT count(*) FROM papers p WHERE NOT EXISTS "
            "(SELECT 1 FROM list_members m WHERE m.paper_id = p.id)"
        ).fetchone()[0]
        if orphans:
            problems.append(f"{orphans} papers in no list")
    finally:
        conn.close()
    return problems


# -- one kill -------------------------------------------------------------------------------


@dataclass
class KillResult:
    command: str
    point: str
    killed: bool  # the process was still running at the kill point
    returncode: int | None
    counts_at_kill: dict[str, int]
    children_at_kill: set[int] = field(default_factory=set)
    orphans: set[int] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)
    resumed: bool | None = None
    seconds: float = 0.0


def kill_during(
    args: list[str],
    db: Path,
    until,
    *,
    sig: int = signal.SIGKILL,
    timeout: float = 120,
    env: dict | None = None,
    name: str = "",
    point: str = "",
) -> KillResult:
    """Start `paperatlas ARGS`, wait until `until(counts, elapsed)` is true, send `sig` to
    the command's own process only (as `kill` would), then look for processes it left
    behind and check the store."""
    start = time.monotonic()
    proc = subprocess.Popen(
        cli_command(*args),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
        cwd=ROOT,
        start_new_session=True,
    )
    counts: dict[str, int] = {}
    children: set[int] = set()
    killed = False
    while time.monotonic() - start < timeout:
        if proc.poll() is not None:
            break
        counts = store_counts(db) if db.exists() else {}
        children = descendants(proc.pid) | children
        if until(counts, time.monotonic() - start):
            children |= descendants(proc.pid)
            os.kill(proc.pid, sig)
            killed = True
            break
        time.sleep(0.02)
    else:
        proc.kill()
    proc.wait(timeout=60)
    proc.stderr.close()
    # the kernel sends the workers' parent-death signal at once, but a loaded machine may
    # run them a while later; give them a moment. A worker started between the last look
    # at the children and the kill is found by the store's path on its command line.
    deadline = time.monotonic() + 5
    while (left := alive(children) | processes_using(str(db))) and time.monotonic() < deadline:
        time.sleep(0.05)
    orphans = left
    for pid in orphans:  # leave nothing behind for the next test, but count it
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return KillResult(
        command=name or args[0],
        point=point,
        killed=killed,
        returncode=proc.returncode,
        counts_at_kill=counts,
        children_at_kill=children,
        orphans=orphans,
        problems=check_store(db),
        seconds=time.monotonic() - start,
    )


def format_table(results: list[KillResult]) -> str:
    """The suite's table: per command, kills tried, stores intact, orphans left, resumed."""
    rows: dict[str, list[KillResult]] = {}
    for r in results:
        rows.setdefault(r.command, []).append(r)
    lines = [
        "command          kills  killed-mid-run  stores-intact  orphans-left  resumed-ok",
        "---------------  -----  --------------  -------------  ------------  ----------",
    ]
    for command, rs in rows.items():
        lines.append(
            f"{command:<15}  {len(rs):>5}  {sum(r.killed for r in rs):>14}  "
            f"{sum(not r.problems for r in rs):>13}  "
            f"{sum(len(r.orphans) for r in rs):>12}  "
            f"{sum(bool(r.resumed) for r in rs):>10}"
        )
    total = results
    lines.append(
        f"{'all':<15}  {len(total):>5}  {sum(r.killed for r in total):>14}  "
        f"{sum(not r.problems for r in total):>13}  "
        f"{sum(len(r.orphans) for r in total):>12}  "
        f"{sum(bool(r.resumed) for r in total):>10}"
    )
    return "\n".join(lines)
