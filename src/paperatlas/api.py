"""`Atlas`: the library face of paperatlas. The CLI and the web app call only this.

Each method is a thin delegation to the pipeline stage that owns the work, imported
lazily so that `import paperatlas` stays fast (torch and friends load only when a
stage that needs them runs).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from paperatlas.store import Store, StoreGeneration


class Atlas:
    """An atlas on disk. `read_only=True` never writes (web `serve --read-only`); the
    default opens read-only only when the file or its directory is not writable, and
    methods that write then fail with StoreError. `create=False`: a missing atlas is an
    error instead of a new one."""

    def __init__(
        self, db: str | os.PathLike[str] | None = None, read_only: bool | None = None, create: bool = True
    ):
        self.store = Store(db, read_only=read_only, create=create)
        self._topics: tuple[Any, Any] | None = None  # (store change counter, TopicLookup)

    @property
    def read_only(self) -> bool:
        return self.store.read_only

    @property
    def path(self) -> Path:
        return self.store.path

    def close(self) -> None:
        self.store.close()

    # -- foundation: sources -> store ------------------------------------------------------
    def add(
        self,
        paths,
        list_name: str | None = None,
        progress: bool = False,
        enrich: bool = True,
        dry_run: bool = False,
    ):
        """Read files (one path or several) into the store, one transaction per file, then
        extract the facts of every paper still without them (also those an interrupted
        earlier run left); returns an AddReport. `dry_run`: the same report, nothing kept."""
        from paperatlas.ingest import add_files

        if isinstance(paths, (str, os.PathLike)):
            paths = [paths]  # one file, not the characters of its name
        self.store.require_writable("add papers")
        report = add_files(
            self.store, [Path(p) for p in paths], list_name=list_name, progress=progress, dry_run=dry_run
        )
        if enrich and not dry_run:
            self.enrich(progress=progress)
        return report

    @staticmethod
    def inspect(path, limit: int = 10):
        """Read one file without storing (no atlas needed: `Atlas.inspect(path)`): its
        FileReport and the first `limit` papers as they would be stored."""
        from paperatlas.ingest import inspect_file

        return inspect_file(Path(path), limit)

    def papers(self, **filters) -> list[dict[str, Any]]:
        """Papers matching filters (list_name, area, decision, text, kind, has_code, limit, offset)."""
        return list(self.store.iter_papers(**filters))

    def paper(self, paper_id: str, topics: bool = True) -> dict[str, Any] | None:
        """One paper with its lists and facts, by id or unique id prefix. `topics=False`
        leaves out `topic` and `reference_topic` (the first call after a store change reads
        whole stored maps: ~40 ms on 10k papers; later calls reuse them)."""
        full = self.store.resolve_id(paper_id)
        if full is None:
            return None
        paper = self.store.get_paper(full)
        paper["lists"] = self.store.lists_of(full)
        paper["facts"] = self.store.get_facts(full) or {}
        if topics:
            paper.update(self._topic_lookup()(full))  # topic and reference_topic (or None)
        return paper

    def _topic_lookup(self):
        """One TopicLookup (its stored maps parsed once) until the store changes."""
        from paperatlas.atlas import TopicLookup

        stamp = self.store.change_counter()
        if self._topics is None or self._topics[0] != stamp:
            self._topics = (stamp, TopicLookup(self.store))
        return self._topics[1]

    def stats(self, list_name: str | None = None) -> dict[str, Any]:
        return self.store.list_stats(list_name)

    def lists(self) -> list[str]:
        return self.store.list_names()

    def export(self, fmt: str, out, **selection) -> int:
        """Write papers (selected like `papers`, or by collection=/query=) as jsonl|csv|bibtex|markdown."""
        from paperatlas.report.export import export_papers

        return export_papers(self.store, fmt, out, **selection)

    # -- understanding ----------------------------------------------------------------------
    def enrich(self, force: bool = False, progress: bool = False) -> dict[str, int]:
        from paperatlas.enrich.pipeline import enrich_store

        return enrich_store(self.store, force=force, progress=progress)

    # -- vectors -----------------------------------------------------------------------------
    def embed(self, model: str | None = None, progress: bool = False) -> dict[str, int]:
        """Vectors of every paper for `model`; the default run also embeds the atlas's
        English vocabulary for Chinese queries (crosslingual.build_vocabulary)."""
        from paperatlas.embed import embed_store

        result = embed_store(self.store, model=model, progress=progress)
        if model is None:
            from paperatlas.search.translate import build_vocabulary

            build_vocabulary(self.store, progress=progress)
        return result

    # -- search --------------------------------------------------------------------------------
    def search(self, query: str, k: int = 20, offset: int = 0, **filters):
        from paperatlas.search import search

        return search(self.store, query, k=k, offset=offset, **filters)

    def similar(self, paper_id: str | None = None, text: str | None = None, k: int = 10, **filters):
        from paperatlas.search import similar

        return similar(self.store, paper_id=paper_id, text=text, k=k, **filters)

    # -- atlas ---------------------------------------------------------------------------------
    def build_map(
        self,
        list_name: str | None = None,
        model: str | None = None,
        force: bool = False,
        progress: bool = False,
    ):
        from paperatlas.atlas import build_map

        return build_map(self.store, list_name=list_name, model=model, force=force, progress=progress)

    # -- take home -----------------------------------------------------------------------------
    def like(self, ids, collection: str = "likes", value: int = 1) -> list[str]:
        from paperatlas.recommend import mark

        self.store.require_writable("mark papers")
        return mark(self.store, ids, collection=collection, value=value)

    def unlike(self, ids, collection: str = "likes") -> list[str]:
        from paperatlas.recommend import unmark

        self.store.require_writable("unmark papers")
        return unmark(self.store, ids, collection=collection)

    def recommend(self, collection: str = "likes", k: int = 30, **filters):
        from paperatlas.recommend import recommend

        return recommend(self.store, collection=collection, k=k, **filters)

    def digest(self, fmt: str = "md", lang: str = "en", **selection) -> str:
        from paperatlas.report.digest import digest

        return digest(self.store, fmt=fmt, lang=lang, **selection)

    def compare(self, list_a: str, list_b: str, **options):
        from paperatlas.compare import compare_lists

        return compare_lists(self.store, list_a, list_b, **options)

    # -- what the web app's pages read (web/ imports nothing else of the library) -------------
    def generation(self) -> StoreGeneration:
        """A commit counter every thread shares (`.current()`), to key caches of derived pages on."""
        return self.store.generation()

    def stored_map(self, scope: str) -> dict[str, Any] | None:
        """The map stored for a list ('*': of all papers) as the store keeps it; None if none."""
        return self.store.get_map(scope)

    def map_view(self, stored: dict[str, Any]) -> dict[str, Any]:
        """A stored map as the web page draws it: topics per level and one row per paper."""
        from paperatlas.atlas import map_view

        return map_view(stored, self.store)

    def liked_ids(self, collection: str = "likes") -> set[str]:
        """The ids of the papers liked (not disliked) in a collection."""
        from paperatlas.recommend import liked_ids

        return set(liked_ids(self.store, collection))

    def card_facts(self, ids: list[str]) -> dict[str, dict[str, Any]]:
        """Per id, the facts a paper's card shows (name, kind, has_code, display_title, gist)."""
        return self.store.card_facts(ids)

    def resolve_id(self, paper_id: str) -> str | None:
        """The full id of a paper named by its id or a unique id prefix; None when none is."""
        return self.store.resolve_id(paper_id)

    def similar_papers(self, paper: dict[str, Any], k: int = 10) -> list[dict[str, Any]]:
        """The k papers closest in meaning to a stored paper (as `similar` ranks them), as rows."""
        from paperatlas.embed import embedding_text
        from paperatlas.search import similar_ranking

        text = embedding_text(paper.get("title"), paper.get("abstract"))
        ranked, _, _ = similar_ranking(self.store, text, k, exclude=paper["id"])
        rows = {r["id"]: r for r in self.store.iter_papers(ids=[pid for pid, _ in ranked])}
        return [rows[pid] for pid, _ in ranked if pid in rows]

    def preload(self) -> None:
        """Read now what a server's first queries would wait for (postings, similar papers, Chinese terms)."""
        from contextlib import suppress

        from paperatlas.errors import PaperatlasError
        from paperatlas.search import keyword, precompute_similar, search

        keyword.preload(self.store)
        precompute_similar(self.store)
        with suppress(PaperatlasError):  # no vectors yet: no cross-lingual terms to load
            search(self.store, "预热", k=1)  # what a first Chinese query would load (seconds)
