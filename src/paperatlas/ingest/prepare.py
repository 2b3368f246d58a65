"""Reading a file for `add`, a batch at a time, in a second process where that pays.

Parsing records (JSON decoding, `paper_from_record`) and fingerprinting their texts
(`normalise_text`, SHA-1 hashes, MinHash signatures) are pure functions of the file, about
half of an import's CPU; the other half (the dedup look-ups, SQLite writes, the full-text
index) must happen in the process that holds the store's one write transaction. For a big
file, `read_batches` runs the first half in a child process (`child()` below) that
streams pickled batches, in file order, through a pipe, while this process writes the
batch before: on a machine with a second core the two halves overlap. A small file, a folder, or `PAPERATLAS_ADD_WORKER=0` reads in this process
(a child costs ~1 s to start); `=1` always uses one.

What the child computes is exactly what ingest would compute itself (the same functions,
text by text; a MinHash signature does not depend on the other texts signed with it), so
the stored rows are the same either way; ingest takes a precomputed value only where it
would have computed it. The child never touches the store. It runs in its own process group,
so a Ctrl-C reaches only this process, whose clean-up kills the child (the transaction rolls
back as before); if this process dies, the child's next write fails and it exits.
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import queue
import struct
import subprocess
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import IO, Any

import numpy as np

from paperatlas.errors import PaperatlasError
from paperatlas.ingest.report import has_text
from paperatlas.paper import Paper, normalise_text
from paperatlas.sources import read
from paperatlas.sources._io import fraction_read, text_size
from paperatlas.sources.report import ReadReport
from paperatlas.store.database import JSON_COLUMNS

WORKER_MIN_BYTES = 4 * 1024 * 1024  # a file of less text than this (unzipped) is read in-process
_ENV = "PAPERATLAS_ADD_WORKER"  # "0": never a child process, "1": always (for a file)
_DEPTH = 4  # batches read ahead of the writer (each ~2 MB pickled)
_HEADER = struct.Struct("<Q")
_CHILD = "from paperatlas.ingest.prepare import child; child()"


def versions(paper: Paper) -> list[str]:
    """The abstract, and the camera-ready one where the source has it (ICLR rows); none
    for a title-only paper. (ingest's dedup texts: `_Import._versions`.)"""
    if not paper.abstract or paper.abstract.isspace():
        return []
    final = paper.extra.get("abstract_final")
    if isinstance(final, str) and has_text(final) and final != paper.abstract:
        return [paper.abstract, final]
    return [paper.abstract]


@dataclass
class Prepared:
    """One paper's work done ahead: `norms` (normalise_text of each version), `hashes`
    (SHA-1 of each norm), MinHash `signatures` (one per version), and `columns`: its JSON
    columns as the store writes them (column -> text), valid while the row still holds
    the paper's own value (the same object)."""

    norms: list[str]
    hashes: list[str]
    signatures: list[np.ndarray]
    columns: dict[str, str]


@dataclass
class Batch:
    papers: list[Paper]
    prepared: list[Prepared] | None  # aligned with papers; None when read in-process
    skips: ReadReport  # the reader's report after this batch
    fraction: float | None  # share of the file read (for the progress bar)


def prepare(papers: list[Paper]) -> list[Prepared]:
    """The fingerprints ingest computes for new texts, and the JSON columns a new row
    stores, for every paper of a batch."""
    return _unpack(*_pack(papers))


def _pack(papers: list[Paper]) -> tuple[list, np.ndarray]:
    """prepare()'s results as plain lists and one signature array (cheap to pickle)."""
    import hashlib

    from paperatlas.ingest import dedup
    from paperatlas.store.database import column_value

    texts = [versions(p) for p in papers]
    norms = [[normalise_text(v) for v in vs] for vs in texts]
    flat_texts = [v for vs in texts for v in vs]
    flat_norms = [n for ns in norms for n in ns]
    if flat_texts:
        sigs = dedup.signatures(flat_texts, flat_norms)
    else:
        sigs = np.zeros((0, dedup.NUM_PERM), dtype=np.uint64)
    rows = []
    for paper, ns in zip(papers, norms):
        hashes = [hashlib.sha1(n.encode("utf-8")).hexdigest() for n in ns]
        columns = [column_value(c, getattr(paper, c)) for c in JSON_COLUMNS]
        rows.append((ns, hashes, columns))
    return rows, sigs


def _unpack(rows: list, sigs: np.ndarray) -> list[Prepared]:
    out, at = [], 0
    for ns, hashes, columns in rows:
        n = len(ns)
        out.append(Prepared(ns, hashes, list(sigs[at : at + n]), dict(zip(JSON_COLUMNS, columns))))
        at += n
    return out


def use_worker(path: Path) -> bool:
    """Whether `read_batches` reads this file in a child process."""
    setting = os.environ.get(_ENV, "")
    if setting == "0" or not sys.executable:
        return False
    try:
        if not path.is_file():
            return False
        size = text_size(path)  # a gzip list is read unzipped: 1 MB on disk can hold 20 MB of records
    except OSError:
        return False
    return setting == "1" or size >= WORKER_MIN_BYTES


def read_batches(
    path: Path,
    skips: ReadReport,
    size: int,
    reader: Callable[..., Iterator[Paper]] = read,
    in_process: bool = False,
) -> Iterator[Batch]:
    """The file's papers, `size` at a time, in order, each batch with the reader's report
    so far (copied into `skips` as batches arrive) and the share of the file read. A
    reader's error (InputError) is raised here, after the batches before it. `reader`
    (`sources.read` or a stand-in) reads in this process; a child always uses `read`
    (`in_process`: never a child, for a reader with its own arguments)."""
    if in_process or not use_worker(path):
        papers = reader(path, skips)
        while batch := list(islice(papers, size)):
            yield Batch(batch, None, skips, fraction_read(path))
        return
    yield from _from_worker(path, skips, size)


# -- the child process ---------------------------------------------------------------------


def _write(out: IO[bytes], obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(_HEADER.pack(len(data)))
    out.write(data)
    out.flush()


def _error_frame(exc: BaseException) -> tuple[str, Any]:
    if isinstance(exc, PaperatlasError):
        return ("error", (type(exc), str(exc), dict(vars(exc))))
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return ("crash", text + "\n" + "".join(traceback.format_tb(exc.__traceback__)))


def worker_main(path: str, size: int, out: IO[bytes]) -> None:
    """Read `path`, writing ("batch", Batch) frames and then ("end", report) or an
    ("error"/"crash", ...) frame to `out`."""
    file = Path(path)
    skips = ReadReport()
    try:
        papers = read(file, skips)
        while batch := list(islice(papers, size)):
            _write(out, ("batch", (batch, _pack(batch), skips, fraction_read(file))))
        _write(out, ("end", skips))
    except BrokenPipeError:  # the parent is gone: nothing to tell
        return
    except Exception as exc:  # every failure goes back to the parent
        _write(out, _error_frame(exc))


# -- the parent's side ---------------------------------------------------------------------


def _child_env() -> dict[str, str]:
    """The environment with this paperatlas's source first on PYTHONPATH, so the child
    runs the very code this process runs."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])  # the folder holding paperatlas/
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return env


def _pump(stream: IO[bytes], frames: queue.Queue, stop: threading.Event) -> None:
    """Move length-prefixed frames from the child's pipe into `frames` (None at EOF)."""

    def put(item: bytes | None) -> bool:
        while not stop.is_set():
            try:
                frames.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    try:
        while True:
            head = stream.read(_HEADER.size)
            if len(head) < _HEADER.size:
                break
            (n,) = _HEADER.unpack(head)
            data = stream.read(n)
            if len(data) < n or not put(data):
                break
    except (OSError, ValueError):
        pass
    put(None)


def _from_worker(path: Path, skips: ReadReport, size: int) -> Iterator[Batch]:
    proc = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(path), str(size)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        env=_child_env(),
        # its own process group (a terminal's Ctrl-C goes to this process only, which
        # stops the child), but this session: the same scheduling group (autogroup)
        process_group=0,
    )
    assert proc.stdout is not None
    frames: queue.Queue = queue.Queue(maxsize=_DEPTH)
    stop = threading.Event()
    pump = threading.Thread(target=_pump, args=(proc.stdout, frames, stop), daemon=True)
    pump.start()
    try:
        while True:
            data = frames.get()
            if data is None:
                code = proc.wait()
                raise PaperatlasError(
                    f"{path}: the process reading the file stopped unexpectedly (exit code {code})"
                )
            kind, value = pickle.loads(data)
            if kind == "batch":
                papers, packed, report, fraction = value
                _copy_report(report, skips)
                yield Batch(papers, _unpack(*packed), skips, fraction)
            elif kind == "end":
                _copy_report(value, skips)
                return
            elif kind == "error":
                cls, message, attrs = value
                exc = cls.__new__(cls)
                exc.args = (message,)
                vars(exc).update(attrs)
                raise exc
            else:
                raise PaperatlasError(f"{path}: the process reading the file failed: {value}")
    finally:
        stop.set()
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        proc.stdout.close()
        pump.join()


def _copy_report(src: ReadReport, dst: ReadReport) -> None:
    """The child's report into the caller's: every field, so one added later is not lost."""
    for name in (f.name for f in dataclasses.fields(ReadReport)):
        setattr(dst, name, getattr(src, name))


def child() -> None:
    """The child's entry point: `python -c '...child()' FILE BATCH_SIZE`."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    worker_main(sys.argv[1], int(sys.argv[2]), sys.stdout.buffer)
