"""`add_files`: each file into the store in a transaction of its own (one that fails is
rolled back, the others still go in), and `inspect_file`: a file read, nothing stored."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from paperatlas.errors import InputError, PaperatlasError
from paperatlas.ingest import unchanged
from paperatlas.ingest.identity import ImportRecord, identifiers_of
from paperatlas.ingest.importer import FileImport
from paperatlas.ingest.merge import new_row
from paperatlas.ingest.prepare import versions
from paperatlas.ingest.report import AddProgress, AddReport, EntryStats, FileReport, no_papers_message
from paperatlas.printable import as_name, file_name
from paperatlas.sources import read
from paperatlas.store import Store

# The page cache of the connection that writes an add, in KiB (SQLite's default is 2 MiB):
# one file is one transaction, and the indexes it writes at random places (hashes,
# identifiers, members, full-text segments) otherwise go through the WAL over and over
# (Store.page_cache).
ADD_CACHE_KIB = 512 * 1024  # 2 GiB at 1M: no faster than the default (quiet: 376.9 s vs 371.6 s), 2.4 GB peak
_SUFFIXES = {
    ".gz",
    ".jsonl",
    ".ndjson",
    ".json",
    ".csv",
    ".tsv",
    ".bib",
    ".bibtex",
    ".txt",
    ".md",
    ".markdown",
    ".mdx",
    ".text",
    ".ris",
    ".rst",
    ".html",
    ".htm",
    ".eml",
}


def list_name_of(path: Path, given: str | None = None) -> str:
    """The name of the list `path` goes into: `given` (`--list`), else the file's stem without
    format suffixes (iclr2026.jsonl.gz -> iclr2026; bytes of a name that are not UTF-8 spelled
    as \\xNN). Either is stored and shown wherever lists are, so it is kept to one line of
    text a viewer only shows: control characters and bidi controls left out, as from the
    papers' text (`sources.inert`), line breaks and tabs as spaces. A name left blank by that
    is no name (the file's)."""
    if given and (name := as_name(file_name(given))).strip():
        return name
    name = as_name(path.name)
    while Path(name).suffix.lower() in _SUFFIXES and Path(name).stem:
        name = Path(name).stem
    return name


class _DryRun(Exception):
    """Raised at the end of a dry-run file to roll its transaction back."""


def add_files(
    store: Store,
    paths: Iterable[str | Path],
    list_name: str | None = None,
    progress: bool = False,
    dry_run: bool = False,
    records: str | None = None,
    skip_unchanged: bool = False,
) -> AddReport:
    """Add each file (one transaction each). A file that fails is rolled back and its
    error recorded; the others still go in. KeyboardInterrupt rolls back and re-raises.
    `dry_run`: each file is imported as usual (same counts) and then rolled back.
    `records`: where a list written by people keeps its records (`sources.finder`), kept
    with the list; without it, the pattern the list was last added with, if any.
    `skip_unchanged`: a file that is the one its list was last added from, the list as
    that add left it, is not read again (`not_read` in its report; ingest/unchanged.py)."""
    report = AddReport()
    bar = AddProgress() if progress else None
    with store.page_cache(ADD_CACHE_KIB):
        try:
            for path in map(Path, paths):
                file_report = FileReport(file_name(path), list_name_of(path, list_name))
                report.files.append(file_report)
                seen = unchanged.fingerprint(path, records or store.lists.records(file_report.list_name))
                if (
                    skip_unchanged
                    and seen is not None
                    and unchanged.is_unchanged(store, file_report.list_name, seen)
                ):
                    file_report.not_read = True
                    continue
                try:
                    with store.transaction():
                        FileImport(store, path, file_report, bar, records).run()
                        if seen is not None:
                            unchanged.remember(store, file_report.list_name, seen)
                        if dry_run:
                            raise _DryRun
                except _DryRun:
                    pass
                except PaperatlasError as exc:
                    file_report.error = str(exc)
                    file_report.added = file_report.merged = file_report.near = 0
                    file_report.unchanged = file_report.filled = file_report.joined = 0
        finally:
            if bar is not None:
                bar.stop()
    return report


def inspect_file(
    path: str | Path, limit: int = 10, records: str | None = None
) -> tuple[FileReport, list[dict[str, Any]]]:
    """Read a file without storing anything: the report a real add would print about
    what was read (format, fields, skips, warnings; no dedup counts) and the first
    `limit` papers as they would be stored (id, identifiers found in their links)."""
    path = Path(path)
    report = FileReport(file_name(path), list_name_of(path))
    rows: list[dict[str, Any]] = []
    for paper in read(path, report.skips, records):
        report.stats.see(paper)
        if report.skips.format == "folder" and paper.source:
            report.files.setdefault(paper.source.rsplit(":", 1)[0], EntryStats()).see(paper)
        if len(rows) < limit:
            record = ImportRecord(paper, versions(paper), identifiers_of(paper))
            rows.append(new_row(record.paper_id, paper, record.identifiers))
    report.skipped = report.skips.skipped_total
    report.read = report.stats.papers + report.skipped
    if not report.stats.papers:  # as `add` refuses it: nothing there would be stored
        raise InputError(path, no_papers_message(report.skips.format, records))
    return report, rows
