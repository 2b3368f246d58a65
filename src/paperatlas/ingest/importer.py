"""One file into one list, inside the caller's transaction: its records read a batch at a
time, each batch's look-ups made in bulk, then each record found among the stored papers
(in the order the package's docstring gives) and added, merged or joined to the list."""

from __future__ import annotations

import hashlib
import sqlite3
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from paperatlas.errors import InputError, PaperatlasError
from paperatlas.ingest import dedup
from paperatlas.ingest.identity import (
    HASH_ID,
    ID_AS_PAPER_ID,
    ImportRecord,
    identifiers_of,
    similar_titles,
    title_key,
)
from paperatlas.ingest.merge import merge_changes, new_row, stored_values
from paperatlas.ingest.prepare import Prepared, read_batches, versions
from paperatlas.ingest.report import AddProgress, EntryStats, FileReport, has_text, no_papers_message
from paperatlas.paper import Paper, normalise_text
from paperatlas.sources import read
from paperatlas.store import Store

BATCH = 500
K = TypeVar("K")
_SAME_ID_MIN = 0.2  # shingle Jaccard below which one id carries two different papers


def _set_once(mapping: dict[K, str], by_hash_id: dict[str, list[K]], key: K, pid: str) -> None:
    """mapping.setdefault(key, pid), noting a new entry that names a hash-id paper."""
    if key not in mapping:
        mapping[key] = pid
        if HASH_ID.match(pid):
            by_hash_id.setdefault(pid, []).append(key)


def _rename(mapping: dict[K, str], by_hash_id: dict[str, list[K]], keys: list[K], old: str, new: str) -> None:
    """Those of `keys` that name `old` in `mapping` name `new` instead."""
    for key in keys:
        if mapping.get(key) == old:
            mapping[key] = new
            if HASH_ID.match(new):  # (a source id that looks like a hash id)
                by_hash_id.setdefault(new, []).append(key)


class FileImport:
    """One file into one list, inside the caller's transaction."""

    def __init__(
        self,
        store: Store,
        path: Path,
        report: FileReport,
        bar: AddProgress | None,
        records: str | None = None,
    ):
        self.store, self.path, self.report, self.bar = store, path, report, bar
        self.records = records
        self.list = report.list_name
        self.index: dedup.NearDuplicateIndex | None = None
        # Titles are dedup keys in the store only for title-only papers (few); a title-only
        # record is looked up among every stored title through a map built on first need.
        self.title_keys_stored = store.dedup.has_identifiers("title")
        self.title_map: dict[str, str] | None = None
        self.title_only_seen = False  # a title-only record came in this import
        self.has_signatures = store.dedup.count_minhashes() > 0
        self.in_list: set[str] = set()  # ids that joined the list during this import
        # A source id seen again in the same file is the same paper (a record repeated or
        # updated: the first one's fields stay, as in any merge), in whichever batch it comes.
        self.file_ids: dict[tuple[str, str], str] = {}  # (file, source id) -> its first paper
        # The entries of file_ids and title_map (both as big as the file or the store) that
        # name a hash-id paper, by that id: a re-key (only hash ids are re-keyed) moves
        # them alone instead of rewriting the whole maps. A title_map entry made from a
        # stored title is found again from that title (titles are filled, never changed).
        self.hash_file_keys: dict[str, list[tuple[str, str]]] = {}
        self.hash_title_keys: dict[str, list[str]] = {}
        self.folder = False  # known once reading starts (read() sets the format)
        self.index_new_papers = lambda: None  # set by store.fts.bulk() in run()
        self.position = 0

    def run(self) -> None:
        self.store.lists.ensure(self.list)
        self.position = self.store.lists.next_position(self.list)
        records = self.records or self.store.lists.records(self.list)
        if self.records:
            self.store.lists.set_records(self.list, self.records)
        task = self.bar.start(self.path) if self.bar else None
        # read (and fingerprinted) in a second process for a big file: see ingest/prepare.py
        reader = partial(read, records=records) if records else read
        batches = read_batches(self.path, self.report.skips, BATCH, reader, in_process=bool(records))
        with self.store.fts.bulk() as self.index_new_papers:
            for read_batch in batches:
                batch = read_batch.papers
                try:
                    self._batch(batch, read_batch.prepared)
                except sqlite3.IntegrityError as exc:  # not the file's fault: say where, go on
                    raise PaperatlasError(
                        f"{self.path}: the records from {batch[0].source or 'its start'} on could not "
                        f"be stored ({exc}: a paperatlas bug, please report it)"
                    ) from None
                self.index_new_papers()  # before a later batch may update these papers
                if self.bar:
                    self.bar.update(task, len(batch), read_batch.fraction)
        if self.bar:
            self.bar.finish(task)
        self.report.skipped = self.report.skips.skipped_total
        self.report.read = self.report.stats.papers + self.report.skipped
        if self.report.stats.papers == 0:
            raise InputError(self.path, no_papers_message(self.report.skips.format, records))

    # -- one batch: look-ups in bulk, then each record in order ----------------------------

    def _batch(self, batch: list[Paper], prepared: list[Prepared] | None = None) -> None:
        """One batch of records; `prepared`: their fingerprints computed ahead (aligned
        with `batch`), used where this would compute them."""
        store, stats = self.store, self.report.stats
        papers = []
        ahead: dict[int, Prepared] = {}
        folder = self.folder = self.report.skips.format == "folder"
        for i, p in enumerate(batch):  # sources.read leaves skipped records out; a stand-in reader may not
            if p.skip or not (
                (p.abstract and not p.abstract.isspace()) or (p.title and not p.title.isspace())
            ):
                self.report.skips.skip(p.skip or "no title and no abstract")
                continue
            stats.see(p)
            papers.append(p)
            if prepared is not None:
                ahead[id(p)] = prepared[i]
            if folder and p.source:
                inner = p.source.rsplit(":", 1)[0]
                self.report.files.setdefault(inner, EntryStats()).see(p)
        self.report.skipped = self.report.skips.skipped_total
        self.report.read = stats.papers + self.report.skipped
        records = [ImportRecord(p, self._versions(p), identifiers_of(p)) for p in papers]
        self.title_only_seen = self.title_only_seen or any(not r.versions for r in records)
        # a title-only record without a source id has an id made from its title or identifiers
        derived = {r.paper_id for r in records if not r.paper.id and not r.versions}
        # a paper stored under its OpenReview or arXiv id is found by that identifier too
        own = {v for r in records if not r.paper.id for k, v in r.identifiers.items() if k in ID_AS_PAPER_ID}
        known_ids = store.papers.existing_ids([*(p.id for p in papers if p.id), *derived, *own])
        # identifiers are looked up for records not known by their id (none on a re-add)
        known_keys = store.dedup.papers_for_identifiers(
            {k for r in records if r.paper.id not in known_ids for k in r.identifiers.items()}
            | {
                ("title", r.title_key)
                for r in records
                if (self.title_keys_stored or not r.versions) and r.title_key
            }
        )
        self.stored = {p["id"]: p for p in store.papers.get_many(known_ids | set(known_keys.values()))}
        # Hashes only where the text is new: a re-add of a stored paper skips this work.
        needs_hash = [r for r in records if not self._same_text(r)]
        for r in needs_hash:
            if (pre := ahead.get(id(r.paper))) is not None:
                r.norms, r.hashes = pre.norms, pre.hashes
                continue
            r.norms = [normalise_text(v) for v in r.versions]
            r.hashes = [hashlib.sha1(n.encode("utf-8")).hexdigest() for n in r.norms]
        known_hashes = store.dedup.papers_for_hashes(h for r in needs_hash for h in r.hashes)
        found = {*known_ids, *known_hashes.values(), *known_keys.values()}
        self.in_list |= store.lists.members_among(self.list, found)
        self.stored.update((p["id"], p) for p in store.papers.get_many(set(known_hashes.values())))
        # Signatures only for records not found by id or hash (none on a re-add).
        todo = [
            r
            for r in needs_hash
            if r.paper.id not in known_ids and not any(h in known_hashes for h in r.hashes)
        ]
        if ahead:
            for r in todo:
                r.signatures.extend(ahead[id(r.paper)].signatures)
            todo = []
        flat = [(r, i) for r in todo for i in range(len(r.norms))]
        if flat:
            sigs = dedup.signatures([r.paper.abstract for r, _ in flat], [r.norms[i] for r, i in flat])
            for (r, _), sig in zip(flat, sigs):
                r.signatures.append(sig)
        self.new_rows: list[dict[str, Any]] = []
        self.new_papers: list[Paper] = []  # the record each new row was made from
        self.new_hashes: list[tuple[str, str]] = []
        self.new_sigs: list[tuple[str, int, Any]] = []
        self.members: list[tuple[str, str, int]] = []
        self.pending: set[str] = set()
        self.new_keys: list[tuple[str, str, str]] = []
        self.pending_rows: dict[str, dict[str, Any]] = {}
        for record in records:
            self._one(record, known_ids, known_hashes, known_keys)
        if ahead:  # JSON columns encoded ahead where the row still holds the paper's own value
            store.papers.insert_values(
                [stored_values(r, p, ahead[id(p)]) for r, p in zip(self.new_rows, self.new_papers)]
            )
        else:
            store.papers.insert_many(self.new_rows)
        store.dedup.add_hashes(self.new_hashes)
        store.dedup.set_minhashes(self.new_sigs)
        store.dedup.add_identifiers(self.new_keys)
        store.lists.add_members(self.members)

    @staticmethod
    def _versions(paper: Paper) -> list[str]:
        """The abstract, and the camera-ready one where the source has it (ICLR rows);
        none for a title-only paper."""
        return versions(paper)

    def _same_text(self, record: ImportRecord) -> bool:
        """Is every text of the record already stored under its id (hashes registered)?"""
        stored = self.stored.get(record.paper.id) if record.paper.id else None
        if stored is None:
            return False
        known = (stored["abstract"], stored["extra"].get("abstract_final"))
        return all(v in known for v in record.versions)

    def _one(
        self,
        record: ImportRecord,
        known_ids: set[str],
        known_hashes: dict[str, str],
        known_keys: dict[tuple[str, str], str],
    ) -> None:
        paper, report = record.paper, self.report
        target, how = self._find(record, known_ids, known_hashes, known_keys)
        if target is None:
            pid = record.clash_id if record.id_clash else record.paper_id
            if key := self._file_key(paper):
                self._file_id(key, pid)
            row = new_row(pid, paper, record.identifiers)
            self.new_rows.append(row)
            self.new_papers.append(paper)
            self.pending.add(pid)
            self.pending_rows[pid] = row
            known_ids.add(pid)
            self._add_keys(record, pid, known_keys)
            for h in record.hashes:
                known_hashes.setdefault(h, pid)
                self.new_hashes.append((h, pid))
            self.new_sigs.extend(
                (pid, i, sig)
                for i, sig in enumerate(record.signatures)
                if dedup.word_count(record.norms[i]) >= dedup.MIN_WORDS
            )
            self._join(pid)
            report.added += 1
            return
        if target in self.pending:
            # twin of a paper added earlier in this same batch: not yet in the table
            row = self.pending_rows[target]
            changes = merge_changes(row, paper, record.identifiers)
            row.update(changes)
            changed = bool(changes)
            if "abstract" in changes:
                self._abstract_filled(record, target)
        else:
            if paper.id and paper.id != target and HASH_ID.match(target) and paper.id not in known_ids:
                self._rekey(target, paper.id, known_ids, known_hashes, known_keys)
                target = paper.id
            changed = self._merge(target, record)
        if key := self._file_key(paper):
            self._file_id(key, target)
        if changed or how != "id":
            self._add_keys(record, target, known_keys)
        for h in record.hashes:
            if known_hashes.get(h) is None:
                known_hashes[h] = target
                self.new_hashes.append((h, target))
        joined = self._join(target)
        if changed or (joined and not self._same_record(target, record)):
            report.merged += 1
            report.near += how == "near"
        else:  # the same record, stored before (perhaps under another list: joined it)
            report.unchanged += 1
            report.joined += bool(joined)

    def _find(
        self,
        record: ImportRecord,
        known_ids: set[str],
        known_hashes: dict[str, str],
        known_keys: dict[tuple[str, str], str],
    ) -> tuple[str | None, str]:
        paper = record.paper
        if (key := self._file_key(paper)) in self.file_ids:
            return self.file_ids[key], "id"
        if paper.id and paper.id in known_ids:
            if (
                (record.versions and not record.hashes)
                or (paper.id in self.pending and not self.folder)  # (a folder's files: as two files)
                or self._same_paper(paper.id, record)
            ):  # no hashes: the text is the stored one
                return paper.id, "id"
            record.id_clash = True  # same id, unrelated text: another paper (a reused key)
            clash = record.clash_id  # that other paper may be stored (another copy of the file)
            if clash not in known_ids and self.store.papers.existing_ids([clash]):
                known_ids.add(clash)
                self.in_list |= self.store.lists.members_among(self.list, [clash])
            if clash in known_ids:
                return clash, "id"
        for key in record.identifiers.items():
            pid = known_keys.get(key)
            if pid is None and key[0] in ID_AS_PAPER_ID and key[1] in known_ids:
                pid = key[1]  # stored under that id, not repeated in paper_identifiers
            if pid is not None and self._compatible(pid, record):
                return pid, "identifier"
        for h in record.hashes:
            pid = known_hashes.get(h)
            if pid is not None and (
                pid not in self.in_list
                or not paper.id
                or HASH_ID.match(pid)
                or pid.startswith(f"{paper.id}~")
            ):  # its own clash id
                return pid, "exact"
        # one of the two must be title-only: a full record's title is worth a look only when
        # the store or this import has title-only papers
        if (not record.versions or self.title_keys_stored or self.title_only_seen) and record.title_key:
            pid = known_keys.get(("title", record.title_key))
            if pid is None and not record.versions:
                pid = self._titles().get(record.title_key)
            if (
                pid is not None
                and self._compatible(pid, record)
                and (not record.versions or not has_text(self._paper(pid)["abstract"]))
            ):
                return pid, "title"
        if not paper.id and not record.versions and record.paper_id in known_ids:
            return record.paper_id, "id"  # a title-only entry seen before (short title)
        if record.id_clash:  # found by id at first, so it has no signature yet
            record.signatures = list(dedup.signatures(record.versions, record.norms))
        if not record.versions or not self.has_signatures:  # (a fresh store: no look-up)
            return None, ""
        queries = [
            sig
            for sig, norm in zip(record.signatures, record.norms)
            if dedup.word_count(norm) >= dedup.MIN_WORDS
        ]
        if not queries:
            return None, ""
        if self.index is None:
            self.index = dedup.NearDuplicateIndex(
                ((pid, variant), sig) for pid, variant, sig in self.store.dedup.iter_minhashes()
            )
        candidates = {pid for sig in queries for pid, _ in self.index.candidates(sig)}
        candidates -= self.in_list
        candidates -= self.store.lists.members_among(self.list, candidates)
        best, best_score = None, 0.0
        mine = [dedup.shingles(v) for v in record.versions]
        for pid in sorted(candidates):
            stored = self.store.papers.get(pid)
            if stored is None:
                continue
            theirs = [stored["abstract"], stored["extra"].get("abstract_final")]
            score = max(
                dedup.jaccard(a, dedup.shingles(t)) for a in mine for t in theirs if isinstance(t, str)
            )
            if score > best_score:
                best, best_score = pid, score
        if best is not None and best_score >= dedup.THRESHOLD:
            return best, "near"
        return None, ""

    def _rekey(
        self,
        old: str,
        new: str,
        known_ids: set[str],
        known_hashes: dict[str, str],
        known_keys: dict[tuple[str, str], str],
    ) -> None:
        """A stored hash-id paper takes the source id of its twin. The store moves its
        rows; what this batch has still to write about it (an earlier record of the batch
        joined it to the list, gave it a hash, an identifier or a signature) and every
        look-up that names it must move too, or the batch's writes name a deleted paper."""
        self.store.papers.rekey(old, new)
        self.index_new_papers()  # the re-keyed row is merged (updated) next

        def swap(pid: str) -> str:
            return new if pid == old else pid

        if old in self.in_list:
            self.in_list.discard(old)
            self.in_list.add(new)
        _rename(self.file_ids, self.hash_file_keys, self.hash_file_keys.pop(old, []), old, new)
        # what the batch has still to write and its look-ups: as big as the batch
        self.members = [(name, swap(pid), pos) for name, pid, pos in self.members]
        self.new_hashes = [(h, swap(pid)) for h, pid in self.new_hashes]
        self.new_sigs = [(swap(pid), i, sig) for pid, i, sig in self.new_sigs]
        self.new_keys = [(kind, value, swap(pid)) for kind, value, pid in self.new_keys]
        mappings: list[dict[Any, str]] = [known_hashes, known_keys]
        for mapping in mappings:
            for key, pid in mapping.items():
                if pid == old:
                    mapping[key] = new
        moved = self.stored.pop(old, None) or self.store.papers.get(new)
        if self.title_map is not None:
            named = self.hash_title_keys.pop(old, [])
            if moved is not None and (own := title_key(moved.get("title"))):
                named.append(own)
            _rename(self.title_map, self.hash_title_keys, named, old, new)
        known_ids.discard(old)
        known_ids.add(new)
        if moved is not None:
            self.stored[new] = {**moved, "id": new}

    def _file_id(self, key: tuple[str, str], pid: str) -> None:
        _set_once(self.file_ids, self.hash_file_keys, key, pid)

    def _title_id(self, tkey: str, pid: str) -> None:
        """A title read in this import (one from a stored title is found from that title)."""
        assert self.title_map is not None
        _set_once(self.title_map, self.hash_title_keys, tkey, pid)

    def _file_key(self, paper: Paper) -> tuple[str, str] | None:
        """(the file it was read from, its source id): in a folder, each file apart."""
        if not paper.id:
            return None
        inner = paper.source.rsplit(":", 1)[0] if self.folder and paper.source else ""
        return inner, paper.id

    def _same_record(self, pid: str, record: ImportRecord) -> bool:
        """The stored paper is this very record again (same id, same abstract), not a twin:
        joining another list, it is unchanged rather than merged."""
        own = record.clash_id if record.id_clash else record.paper_id
        return own == pid and normalise_text(record.paper.abstract) == normalise_text(
            self._paper(pid).get("abstract") or ""
        )

    def _paper(self, pid: str) -> dict[str, Any]:
        """A stored paper, or one added earlier in this batch."""
        if pid in self.pending_rows:
            return self.pending_rows[pid]
        stored = self.stored.get(pid)
        if stored is None:
            stored = self.store.papers.get(pid)
            assert stored is not None, pid  # ids come from the store's own look-ups
            self.stored[pid] = stored
        return stored

    def _same_paper(self, pid: str, record: ImportRecord) -> bool:
        """Is a record whose text differs from the stored paper with its id still that
        paper (a revised abstract), not another one under a reused id (two BibTeX files
        both keyed `smith2020`)? Revisions keep most of their word 3-shingles; where one
        side is title-only, the titles must share most of their words."""
        if not record.hashes and record.versions:
            return True  # the same text (hashes are only computed where it differs)
        stored = self._paper(pid)
        theirs = [
            t
            for t in (stored["abstract"], stored["extra"].get("abstract_final"))
            if isinstance(t, str) and t.strip()
        ]
        if record.versions and theirs:
            return (
                max(
                    dedup.jaccard(dedup.shingles(a), dedup.shingles(t))
                    for a in record.versions
                    for t in theirs
                )
                >= _SAME_ID_MIN
            )
        return similar_titles(stored.get("title"), record.paper.title)

    def _compatible(self, pid: str, record: ImportRecord) -> bool:
        """May the record be the paper `pid`: no identifier of one kind differs?"""
        theirs = self._paper(pid).get("identifiers") or {}
        return all(theirs.get(k) in (None, v) for k, v in record.identifiers.items())

    def _add_keys(self, record: ImportRecord, pid: str, known_keys: dict[tuple[str, str], str]) -> None:
        for key in record.identifiers.items():
            if key not in known_keys:
                known_keys[key] = pid
                if key[1] != pid:
                    self.new_keys.append((*key, pid))
        # a full record's title matters only to title-only records: those of this import
        # find it through the title map (once built), later ones through iter_titles
        if (record.versions and self.title_map is None) or not record.title_key:
            return
        key = ("title", record.title_key)
        if self.title_map is not None:
            self._title_id(record.title_key, pid)
        if key not in known_keys:
            known_keys[key] = pid
            if not has_text(self._paper(pid)["abstract"]):  # stored only for title-only papers
                self.new_keys.append((*key, pid))
                self.title_keys_stored = True

    def _titles(self) -> dict[str, str]:
        """Title key -> paper id for every stored paper with a title (built once)."""
        if self.title_map is None:
            self.title_map = {}
            for pid, title in self.store.papers.titles():
                if key := title_key(title):
                    self.title_map.setdefault(key, pid)
            for pid, row in self.pending_rows.items():
                if key := title_key(row.get("title")):
                    self.title_map.setdefault(key, pid)
        return self.title_map

    def _abstract_filled(self, record: ImportRecord, pid: str) -> None:
        """A title-only paper gained its abstract: fingerprint it for later dedup."""
        self.report.filled += 1
        if not record.norms:
            record.norms = [normalise_text(v) for v in record.versions]
            record.hashes = [hashlib.sha1(n.encode("utf-8")).hexdigest() for n in record.norms]
        if not record.signatures:
            record.signatures = list(dedup.signatures(record.versions, record.norms))
        self.new_sigs.extend(
            (pid, i, sig)
            for i, sig in enumerate(record.signatures)
            if dedup.word_count(record.norms[i]) >= dedup.MIN_WORDS
        )

    def _join(self, pid: str) -> bool:
        if pid in self.in_list:
            return False
        self.in_list.add(pid)
        self.members.append((self.list, pid, self.position))
        self.position += 1
        return True

    def _merge(self, pid: str, record: ImportRecord) -> bool:
        stored = self._paper(pid)
        changes = merge_changes(stored, record.paper, record.identifiers)
        if changes:
            self.store.papers.update(pid, changes)
            self.stored[pid] = {**stored, **changes}
            if "abstract" in changes:
                self._abstract_filled(record, pid)
        return bool(changes)
