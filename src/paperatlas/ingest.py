"""Files -> store: read each file, deduplicate against what is stored, merge, record
list membership. One transaction per file, so an interrupted or failed import leaves
the store as it was.

How a record finds its paper, in order:
1. its source id is already stored (and the texts are not unrelated: an id reused for
   another paper, like two BibTeX files' `smith2020`, gives that paper `smith2020~<hash>`);
2. exact: the hash of its normalised abstract (or `abstract_final`) is known;
3. near-duplicate: MinHash LSH finds a stored abstract whose word-3-shingle Jaccard
   similarity with it is >= 0.8 (checked exactly on the texts).
Two different records of the same list are never merged by 2 or 3 (a list does not
name one paper twice under two ids; ICLR has near-identical resubmissions). Merging
fills the stored paper's empty fields and unions its keywords and urls; a paper known
only by an abstract hash takes the source id of its twin.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from paperatlas import dedup
from paperatlas.errors import InputError, PaperatlasError
from paperatlas.paper import Paper, normalise_text, paper_id
from paperatlas.sources import read
from paperatlas.sources._io import fraction_read
from paperatlas.store import PAPER_COLUMNS, Store

BATCH = 500
_SUFFIXES = {".gz", ".jsonl", ".ndjson", ".json", ".csv", ".tsv", ".bib", ".bibtex", ".txt",
             ".md", ".text"}
_HASH_ID = re.compile(r"^h[0-9a-f]{15}$")
_FILL_FIELDS = ("title", "venue", "year", "area", "decision", "rating")
_SAME_ID_MIN = 0.2  # shingle Jaccard below which one id carries two different papers


@dataclass
class FileReport:
    path: str
    list_name: str
    read: int = 0          # records read from the file
    added: int = 0         # new papers stored
    merged: int = 0        # records merged into a stored paper (joined the list or filled fields)
    near: int = 0          # ... of which matched as near-duplicates (MinHash)
    unchanged: int = 0     # records already stored and in the list, nothing new
    skipped: int = 0       # records without an abstract
    error: str | None = None


@dataclass
class AddReport:
    files: list[FileReport] = field(default_factory=list)

    def _sum(self, name: str) -> int:
        return sum(getattr(f, name) for f in self.files)

    @property
    def added(self) -> int:
        return self._sum("added")

    @property
    def merged(self) -> int:
        return self._sum("merged")

    @property
    def skipped(self) -> int:
        return self._sum("skipped")

    @property
    def unchanged(self) -> int:
        return self._sum("unchanged")

    @property
    def errors(self) -> list[str]:
        return [f.error for f in self.files if f.error]


def default_list_name(path: Path) -> str:
    """The file's stem without format suffixes: iclr2026.jsonl.gz -> iclr2026."""
    name = path.name
    while Path(name).suffix.lower() in _SUFFIXES and Path(name).stem:
        name = Path(name).stem
    return name


def add_files(store: Store, paths: Iterable[str | Path], list_name: str | None = None,
              progress: bool = False) -> AddReport:
    """Add each file (one transaction each). A file that fails is rolled back and its
    error recorded; the others still go in. KeyboardInterrupt rolls back and re-raises."""
    report = AddReport()
    bar = _Progress() if progress else None
    try:
        for path in map(Path, paths):
            file_report = FileReport(str(path), list_name or default_list_name(path))
            report.files.append(file_report)
            try:
                with store.transaction():
                    _Import(store, path, file_report, bar).run()
            except PaperatlasError as exc:
                file_report.error = str(exc)
                file_report.added = file_report.merged = file_report.near = 0
                file_report.unchanged = file_report.skipped = 0
    finally:
        if bar is not None:
            bar.stop()
    return report


class _Import:
    """One file into one list, inside the caller's transaction."""

    def __init__(self, store: Store, path: Path, report: FileReport, bar: "_Progress | None"):
        self.store, self.path, self.report, self.bar = store, path, report, bar
        self.list = report.list_name
        self.index: dedup.NearDuplicateIndex | None = None
        self.has_signatures = store.count_minhashes() > 0
        self.in_list: set[str] = set()       # ids that joined the list during this import
        self.index_new_papers = lambda: None  # set by store.bulk_fts() in run()
        self.position = 0

    def run(self) -> None:
        self.store.ensure_list(self.list)
        self.position = self.store.next_position(self.list)
        task = self.bar.start(self.path) if self.bar else None
        papers = read(self.path)
        with self.store.bulk_fts() as self.index_new_papers:
            while batch := list(islice(papers, BATCH)):
                self._batch(batch)
                self.index_new_papers()  # before a later batch may update these papers
                if self.bar:
                    self.bar.update(task, len(batch), fraction_read(self.path))
        if self.bar:
            self.bar.finish(task)
        if self.report.read == 0:
            raise InputError(self.path, "no papers found in it")

    # -- one batch: look-ups in bulk, then each record in order ----------------------------

    def _batch(self, batch: list[Paper]) -> None:
        self.report.read += len(batch)
        store = self.store
        papers = [p for p in batch if p.abstract.strip()]
        self.report.skipped += len(batch) - len(papers)
        known_ids = store.existing_ids(p.id for p in papers if p.id)
        self.stored = {p["id"]: p for p in store.get_papers(known_ids)}
        records = [_Record(p, self._versions(p)) for p in papers]
        # Hashes only where the text is new: a re-add of a stored paper skips this work.
        needs_hash = [r for r in records if not self._same_text(r)]
        for r in needs_hash:
            r.norms = [normalise_text(v) for v in r.versions]
            r.hashes = [hashlib.sha1(n.encode("utf-8")).hexdigest() for n in r.norms]
        known_hashes = store.papers_for_hashes(h for r in needs_hash for h in r.hashes)
        found = {*known_ids, *known_hashes.values()}
        self.in_list |= store.members_among(self.list, found)
        self.stored.update((p["id"], p) for p in store.get_papers(set(known_hashes.values())))
        # Signatures only for records not found by id or hash (none on a re-add).
        todo = [r for r in needs_hash if r.paper.id not in known_ids
                and not any(h in known_hashes for h in r.hashes)]
        flat = [(r, i) for r in todo for i in range(len(r.norms))]
        if flat:
            sigs = dedup.signatures([r.paper.abstract for r, _ in flat],
                                    [r.norms[i] for r, i in flat])
            for (r, i), sig in zip(flat, sigs):
                r.signatures.append(sig)
        self.new_rows: list[dict[str, Any]] = []
        self.new_hashes: list[tuple[str, str]] = []
        self.new_sigs: list[tuple[str, int, Any]] = []
        self.members: list[tuple[str, str, int]] = []
        self.pending: set[str] = set()
        for record in records:
            self._one(record, known_ids, known_hashes)
        store.insert_papers(self.new_rows)
        store.add_hashes(self.new_hashes)
        store.set_minhashes(self.new_sigs)
        store.add_members(self.members)

    @staticmethod
    def _versions(paper: Paper) -> list[str]:
        """The abstract, and the camera-ready one where the source has it (ICLR rows)."""
        final = paper.extra.get("abstract_final")
        if isinstance(final, str) and final.strip() and final != paper.abstract:
            return [paper.abstract, final]
        return [paper.abstract]

    def _same_text(self, record: "_Record") -> bool:
        """Is every text of the record already stored under its id (hashes registered)?"""
        stored = self.stored.get(record.paper.id) if record.paper.id else None
        if stored is None:
            return False
        known = (stored["abstract"], stored["extra"].get("abstract_final"))
        return all(v in known for v in record.versions)

    def _one(self, record: "_Record", known_ids: set[str], known_hashes: dict[str, str]) -> None:
        paper, report = record.paper, self.report
        target, how = self._find(record, known_ids, known_hashes)
        if target is None:
            pid = paper_id(paper)
            if record.id_clash:
                pid = f"{pid}~{record.hashes[0][:8]}"
            self.new_rows.append(_row(pid, paper))
            self.pending.add(pid)
            known_ids.add(pid)
            for h in record.hashes:
                known_hashes.setdefault(h, pid)
                self.new_hashes.append((h, pid))
            self.new_sigs.extend((pid, i, sig) for i, sig in enumerate(record.signatures)
                                 if dedup.word_count(record.norms[i]) >= dedup.MIN_WORDS)
            self._join(pid)
            report.added += 1
            return
        if target in self.pending:
            # twin of a paper added earlier in this same batch: not yet in the table
            changed = False
        else:
            if paper.id and paper.id != target and _HASH_ID.match(target) \
                    and paper.id not in known_ids:
                self.store.rekey_paper(target, paper.id)
                self.index_new_papers()  # the re-keyed row is merged (updated) next
                self.in_list = {paper.id if i == target else i for i in self.in_list}
                for h, pid in list(known_hashes.items()):
                    if pid == target:
                        known_hashes[h] = paper.id
                known_ids.add(paper.id)
                target = paper.id
            changed = self._merge(target, paper)
        for h in record.hashes:
            if known_hashes.get(h) is None:
                known_hashes[h] = target
                self.new_hashes.append((h, target))
        joined = self._join(target)
        if joined or changed:
            report.merged += 1
            report.near += how == "near"
        else:
            report.unchanged += 1

    def _find(self, record: "_Record", known_ids: set[str],
              known_hashes: dict[str, str]) -> tuple[str | None, str]:
        paper = record.paper
        if paper.id and paper.id in known_ids:
            if not record.hashes or paper.id in self.pending or self._same_paper(paper.id, record):
                return paper.id, "id"
            record.id_clash = True  # same id, unrelated text: another paper (a reused key)
        for h in record.hashes:
            pid = known_hashes.get(h)
            if pid is not None and (pid not in self.in_list or not paper.id or _HASH_ID.match(pid)
                                    or pid.startswith(f"{paper.id}~")):  # its own clash id
                return pid, "exact"
        if record.id_clash:  # found by id at first, so it has no signature yet
            record.signatures = list(dedup.signatures(record.versions, record.norms))
        queries = [sig for sig, norm in zip(record.signatures, record.norms)
                   if dedup.word_count(norm) >= dedup.MIN_WORDS]
        if not queries or not self.has_signatures:
            return None, ""
        if self.index is None:
            self.index = dedup.NearDuplicateIndex(
                ((pid, variant), sig) for pid, variant, sig in self.store.iter_minhashes())
        candidates = {pid for sig in queries for pid, _ in self.index.candidates(sig)}
        candidates -= self.in_list
        candidates -= self.store.members_among(self.list, candidates)
        best, best_score = None, 0.0
        mine = [dedup.shingles(v) for v in record.versions]
        for pid in sorted(candidates):
            stored = self.store.get_paper(pid)
            if stored is None:
                continue
            theirs = [stored["abstract"], stored["extra"].get("abstract_final")]
            score = max(dedup.jaccard(a, dedup.shingles(t)) for a in mine for t in theirs
                        if isinstance(t, str))
            if score > best_score:
                best, best_score = pid, score
        if best is not None and best_score >= dedup.THRESHOLD:
            return best, "near"
        return None, ""

    def _same_paper(self, pid: str, record: "_Record") -> bool:
        """Is a record whose text differs from the stored paper with its id still that
        paper (a revised abstract), not another one under a reused id (two BibTeX files
        both keyed `smith2020`)? Revisions keep most of their word 3-shingles."""
        stored = self.stored.get(pid) or self.store.get_paper(pid)
        theirs = [stored["abstract"], stored["extra"].get("abstract_final")]
        return max(dedup.jaccard(dedup.shingles(a), dedup.shingles(t))
                   for a in record.versions for t in theirs if isinstance(t, str)) >= _SAME_ID_MIN

    def _join(self, pid: str) -> bool:
        if pid in self.in_list:
            return False
        self.in_list.add(pid)
        self.members.append((self.list, pid, self.position))
        self.position += 1
        return True

    def _merge(self, pid: str, paper: Paper) -> bool:
        stored = self.stored.get(pid) or self.store.get_paper(pid)
        changes = merge_changes(stored, paper)
        if changes:
            self.store.update_paper(pid, changes)
            self.stored[pid] = {**stored, **changes}
        return bool(changes)


@dataclass
class _Record:
    paper: Paper
    versions: list[str]
    norms: list[str] = field(default_factory=list)
    hashes: list[str] = field(default_factory=list)
    signatures: list[Any] = field(default_factory=list)
    id_clash: bool = False


def _row(pid: str, paper: Paper) -> dict[str, Any]:
    row = {c: getattr(paper, c) for c in PAPER_COLUMNS if c != "id"}
    row["id"] = pid
    return row


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def merge_changes(stored: dict[str, Any], paper: Paper) -> dict[str, Any]:
    """Columns of a stored paper that a newly read twin adds: empty fields filled,
    keywords and urls unioned, extra keys added. Nothing stored is overwritten."""
    changes: dict[str, Any] = {}
    for name in _FILL_FIELDS:
        value = getattr(paper, name)
        if _empty(stored.get(name)) and not _empty(value):
            changes[name] = value
    if not stored.get("authors") and paper.authors:
        changes["authors"] = paper.authors
    for name in ("keywords", "urls"):
        have = list(stored.get(name) or [])
        seen = {str(v).lower() for v in have}
        new = [v for v in getattr(paper, name) if str(v).lower() not in seen]
        if new:
            changes[name] = have + new
    extra = dict(stored.get("extra") or {})
    added = {k: v for k, v in paper.extra.items() if k not in extra and not _empty(v)}
    if added:
        changes["extra"] = {**extra, **added}
    return changes


class _Progress:
    """A rich progress bar per file on stderr: the share of the file read, papers so far."""

    def __init__(self):
        from rich.console import Console
        from rich.progress import (BarColumn, Progress, SpinnerColumn, TaskProgressColumn,
                                   TextColumn, TimeElapsedColumn)
        self._progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                                  TaskProgressColumn(), TextColumn("{task.fields[papers]} papers"),
                                  TimeElapsedColumn(), console=Console(stderr=True))
        self._progress.start()

    def start(self, path: Path):
        return self._progress.add_task(f"adding {path.name}", total=1000, papers=0)

    def update(self, task, papers: int, fraction: float | None) -> None:
        done = self._progress.tasks[task].fields["papers"] + papers
        if fraction is None:
            self._progress.update(task, papers=done)
        else:
            self._progress.update(task, papers=done, completed=int(1000 * fraction))

    def finish(self, task) -> None:
        self._progress.update(task, completed=1000)

    def stop(self) -> None:
        self._progress.stop()
