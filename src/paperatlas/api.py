"""`Atlas`: the library face of paperatlas, and the only way in for the CLI and the web app.

Each method is a thin delegation to the pipeline stage that owns the work, imported
lazily so that `import paperatlas` stays fast (torch and friends load only when a
stage that needs them runs). Every answer is a typed record from `paperatlas.results`.

    with Atlas(".paperatlas/atlas.db") as atlas:
        atlas.add("iclr2026.jsonl")
        atlas.embed_for_search()
        hits = atlas.search("memory privacy").hits
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, TextIO

from paperatlas.cache import StoreCache
from paperatlas.errors import PaperatlasError
from paperatlas.filters import ALL_PAPERS, Filters
from paperatlas.results import (
    AreaModelReport,
    Collection,
    EmbedReport,
    EnrichReport,
    FactRow,
    Inspection,
    Kept,
    ListStats,
    Map,
    ModelInfo,
    ModelProgress,
    PaperDetail,
    PersonalImport,
    QuickStart,
    ReferenceInfo,
    SearchStatus,
    VocabularyReport,
)
from paperatlas.store import Store, StoreGeneration

if TYPE_CHECKING:
    from paperatlas.atlas import TopicLookup
    from paperatlas.atlas.view import MapReader
    from paperatlas.compare import Comparison
    from paperatlas.ingest import AddReport
    from paperatlas.llm import Estimate as LlmEstimate
    from paperatlas.llm import RunReport as LlmReport
    from paperatlas.recommend import Recommendations
    from paperatlas.report.follows import Follow, FollowedPaper
    from paperatlas.report.zh_card import ZhCard
    from paperatlas.search import SearchResult

PathLike = str | os.PathLike[str]


class Atlas:
    """An atlas on disk. `read_only=True` never writes (web `serve --read-only`); the
    default opens read-only only when the file or its directory is not writable, and
    methods that write then fail with StoreError. `create=False`: a missing atlas is an
    error instead of a new one. A context manager: `with Atlas(db) as atlas:` closes it."""

    def __init__(
        self, db: PathLike | None = None, read_only: bool | None = None, create: bool = True
    ) -> None:
        self.store = Store(db, read_only=read_only, create=create)
        # this store's TopicLookup, until the store changes (it holds the store: not shared)
        self._topics = StoreCache(max_entries=1)

    @staticmethod
    def default_path() -> Path:
        """The atlas used when none is named: $PAPERATLAS_DB, else .paperatlas/atlas.db."""
        from paperatlas.store import default_db_path

        return default_db_path()

    @staticmethod
    def restore(copy: PathLike, db: PathLike | None = None, force: bool = False) -> Path | None:
        """Put an atlas copy (`Atlas.backup`'s file) in place of the atlas at `db`: checked
        first to be an atlas of a schema this paperatlas opens (StoreError, nothing changed);
        an atlas there already is replaced only with `force`, and kept as ATLAS.bak (the
        path returned; None when there was none)."""
        from paperatlas.store import default_db_path
        from paperatlas.store.backup import restore_database

        return restore_database(Path(copy), Path(db) if db is not None else default_db_path(), force)

    def backup(self, path: PathLike) -> int:
        """Copy the whole atlas to one SQLite file, as of one commit (safe while a server
        reads or another process writes); a file there is replaced only if it is an atlas
        (StoreError otherwise). Returns the copy's size in bytes."""
        from paperatlas.store.backup import check_replaceable, copy_database

        target = Path(path)
        if target.exists() and target.resolve() == self.store.path.resolve():
            raise PaperatlasError(f"{target}: is the atlas itself; name another file for the backup")
        check_replaceable(target, "backup")
        copy_database(self.store.conn, target)
        return target.stat().st_size

    @property
    def read_only(self) -> bool:
        return self.store.read_only

    @property
    def path(self) -> Path:
        return self.store.path

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Atlas:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # -- foundation: sources -> store ------------------------------------------------------
    def add(
        self,
        paths: PathLike | Iterable[PathLike],
        list_name: str | None = None,
        progress: bool = False,
        enrich: bool = True,
        dry_run: bool = False,
        records: str | None = None,
        skip_unchanged: bool = False,
    ) -> AddReport:
        """Read files (one path or several) into the store, one transaction per file, then
        extract the facts of every paper still without them (also those an interrupted
        earlier run left); returns an AddReport. `dry_run`: the same report, nothing kept.
        `records`: where a list written by people keeps its papers (`h3`, `li`, `tr`, `br`,
        `li.pub`; see docs/formats.md), kept with the list for the next add of it.
        `skip_unchanged`: a file whose size, modification time and content are those it had
        when its list was last added from it, the list unchanged since, is not read again
        (its report's `not_read`)."""
        from paperatlas.ingest import add_files

        if isinstance(paths, (str, os.PathLike)):
            paths = [paths]  # one file, not the characters of its name
        self.store.require_writable("add papers")
        report = add_files(
            self.store,
            [Path(p) for p in paths],
            list_name=list_name,
            progress=progress,
            dry_run=dry_run,
            records=records,
            skip_unchanged=skip_unchanged,
        )
        if enrich and not dry_run:
            self.enrich(progress=progress)
        return report

    @staticmethod
    def inspect(path: PathLike, limit: int = 10, records: str | None = None) -> Inspection:
        """Read one file without storing (no atlas needed: `Atlas.inspect(path)`): its
        FileReport and the first `limit` papers as they would be stored (`records`: as
        in `add`)."""
        from paperatlas.ingest import inspect_file

        report, papers = inspect_file(Path(path), limit, records)
        return Inspection(report, papers)

    @staticmethod
    def file_format(path: PathLike) -> str:
        """The format `add` reads a file as (jsonl, csv, bibtex, ...); InputError if none."""
        from paperatlas.sources import detect

        return str(detect(Path(path)))

    def papers(
        self,
        filters: Filters = ALL_PAPERS,
        text: str | None = None,
        section: str | None = None,
        sort: str | None = None,
        limit: int | None = None,
        offset: int = 0,
        ids: Iterable[str] | None = None,
        map_rows: Iterable[int] | None = None,
    ) -> list[dict[str, Any]]:
        """Stored rows passing `filters` (`paperatlas.Filters`: list, area, kind, decision,
        has code, tag, state), a substring of title or abstract (`text`) or of the list's
        section heading (`section`), one map topic's rows (`map_rows`); sorted by title,
        rating or name (`sort`), else in list order; a page of `limit` from `offset`. Each
        row: the paper's fields plus kind, name, has_code, display_title and
        predicted_area from its facts. `ids`: only these papers."""
        rows = self.store.iter_papers(
            filters,
            text=text,
            section=section,
            sort=sort,
            limit=limit,
            offset=offset,
            ids=ids,
            map_rows=map_rows,
        )
        return list(rows)

    def count_papers(
        self,
        filters: Filters = ALL_PAPERS,
        text: str | None = None,
        section: str | None = None,
        map_rows: Iterable[int] | None = None,
    ) -> int:
        """How many stored papers `papers` would give (without limit), counted in SQLite."""
        return self.store.count_matching(filters, text=text, section=section, map_rows=map_rows)

    def paper(self, paper_id: str, topics: bool = True) -> PaperDetail | None:
        """One paper with its lists and facts, by id or unique id prefix. `topics=False`
        leaves out `topic` and `reference_topic` (the first call after a store change reads
        whole stored maps: ~40 ms on 10k papers; later calls reuse them)."""
        full = self.store.resolve_id(paper_id)
        if full is None:
            return None
        record = self.store.get_paper(full)
        if record is None:  # deleted since resolve_id
            return None
        return PaperDetail(
            record,
            lists=self.store.lists_of(full),
            facts=self.store.get_facts(full) or {},
            topics=self._topic_lookup()(full) if topics else None,
        )

    def _topic_lookup(self) -> TopicLookup:
        """One TopicLookup (its stored maps parsed once) until the store changes."""
        from paperatlas.atlas import TopicLookup

        return self._topics.get(self.store, "topics", lambda: TopicLookup(self.store))

    def stats(self, list_name: str | None = None) -> ListStats:
        """Papers, papers with a title, counts by area and by decision (one list or all)."""
        return ListStats(**self.store.list_stats(list_name))

    def kind_counts(self, list_name: str | None = None) -> tuple[dict[str, int], int]:
        """Papers by kind of contribution ('(unknown)' without facts) and how many link their code."""
        return self.store.kind_counts(list_name)

    def lists(self) -> list[str]:
        return self.store.list_names()

    def export(
        self,
        fmt: str,
        out: PathLike | TextIO,
        filters: Filters = ALL_PAPERS,
        collection: str | None = None,
        query: str | None = None,
        query_k: int = 100,
    ) -> int:
        """Write papers as jsonl|csv|bibtex|ris|csl-json|markdown, or as markdown-folder (`out`
        a folder: one file per paper) (`results.EXPORT_FORMATS`): those `filters` let through,
        or a collection's liked papers or a search's `query_k` best hits (`query`), narrowed by
        `filters`; returns how many. BibTeX, RIS, CSL-JSON and the folder carry the papers'
        notes and tags."""
        from paperatlas.report.export import export_papers

        return export_papers(
            self.store, fmt, out, filters, collection=collection, query=query, query_k=query_k
        )

    def bibtex(self, paper_id: str) -> str:
        """One paper's BibTeX entry as `export("bibtex")` writes it ("" for an unknown id)."""
        from paperatlas.report.export import paper_bibtex

        return paper_bibtex(self.store, paper_id)

    # -- understanding ----------------------------------------------------------------------
    def enrich(
        self,
        force: bool = False,
        progress: bool = False,
        ray: bool = False,
        address: str | None = None,
        workers: int | None = None,
    ) -> EnrichReport:
        """Extract the facts of every paper without current ones (all with `force`).
        `ray`: the batches run on Ray, a local instance or the cluster at `address`, with
        `workers` actors."""
        if ray:
            from paperatlas.enrich.distributed import enrich_store_ray

            counts = enrich_store_ray(
                self.store, force=force, progress=progress, address=address, workers=workers
            )
        else:
            from paperatlas.enrich.pipeline import enrich_store

            counts = enrich_store(self.store, force=force, progress=progress)
        return EnrichReport(**counts)

    def facts_pending(self) -> bool:
        """Whether some paper has no current facts (an interrupted `add` or `enrich`)."""
        return bool(self.store.facts_pending())

    @staticmethod
    def fact_rows(facts: dict[str, Any]) -> list[FactRow]:
        """A paper's facts one line each, as a reader wants them: ("kind", "benchmark
        (also: dataset)"), ("numbers", "up to 69% attribute-level violations · ...")."""
        from paperatlas.enrich.areas import area_label, top3_text
        from paperatlas.enrich.numbers import describe

        rows: list[FactRow] = []

        def row(label: str, value: str | None) -> None:
            if value:
                rows.append(FactRow(label, value))

        names = facts.get("names") or []
        row("name", facts.get("name"))
        if len(names) > 1:
            row("also names", ", ".join(names[1:]))
        kind = facts.get("kind")
        if kind:
            secondary = facts.get("kinds") or []
            row("kind", kind + (f" (also: {', '.join(secondary)})" if secondary else ""))
        area = facts.get("predicted_area")
        if isinstance(area, dict) and area.get("label"):
            shown = area_label(area)  # "A or B" when the top two are a near-tie
            row("area (predicted)", shown if area.get("tie") else f"{shown} ({area.get('prob', 0):.0%})")
            row("area top 3", top3_text(area))
        row("gist", facts.get("gist"))
        numbers = [
            describe(n) + (" (setup)" if n.get("role") == "setup" else "") for n in facts.get("numbers") or []
        ]
        row("numbers", " · ".join(numbers))
        for link in facts.get("links") or []:
            row(link.get("type", "link"), link.get("url"))
        row("keyphrases", ", ".join(facts.get("keyphrases") or []))
        return rows

    @staticmethod
    def train_areas(
        data: PathLike, out: PathLike | None = None, include_held_out: bool = False, progress: bool = False
    ) -> AreaModelReport:
        """Train the research-area classifier from labelled papers (JSONL rows with title,
        abstract, primary_area) and save it (default: the model shipped in the package)."""
        from paperatlas.enrich.areas import train_from_file

        info = train_from_file(
            Path(data),
            out=Path(out) if out is not None else None,
            include_held_out=include_held_out,
            progress=progress,
        )
        return AreaModelReport(**info)

    # -- vectors -----------------------------------------------------------------------------
    @staticmethod
    def models() -> list[ModelInfo]:
        """The embedding back ends `embed(model=...)` accepts (`default`: used when none is
        named; `search`: search fuses it, `embed_for_search` computes it)."""
        from paperatlas.embed import DEFAULT_MODEL, SEARCH_MODELS, available_backends

        return [
            ModelInfo(name, what, name == DEFAULT_MODEL, name in SEARCH_MODELS)
            for name, what in available_backends().items()
        ]

    def embed(
        self,
        model: str | None = None,
        progress: bool = False,
        force: bool = False,
        batch_size: int | None = None,
        ray: bool = False,
        address: str | None = None,
        workers: int | None = None,
        vocabulary: bool = True,
    ) -> EmbedReport:
        """Vectors of every paper for `model` (only missing or stale ones; all with `force`),
        committed `batch_size` papers at a time. `ray`: the batches run on Ray, a local
        instance or the cluster at `address`, with `workers` actors. The default model's
        run also embeds the atlas's English vocabulary for Chinese queries
        (`vocabulary=False`: not now; see build_vocabulary)."""
        sizing: dict[str, Any] = {} if batch_size is None else {"batch_size": batch_size}
        if ray:
            from paperatlas.embed.distributed import embed_store_ray

            result = embed_store_ray(
                self.store,
                model=model,
                address=address,
                workers=workers,
                progress=progress,
                force=force,
                **sizing,
            )
        else:
            from paperatlas.embed import embed_store

            result = embed_store(self.store, model=model, progress=progress, force=force, **sizing)
        if model is None and vocabulary:
            self.build_vocabulary(progress=progress, force=force)
        return EmbedReport(**result)

    def embed_for_search(
        self,
        progress: bool = False,
        force: bool = False,
        batch_size: int | None = None,
        ray: bool = False,
        address: str | None = None,
        workers: int | None = None,
        vocabulary: bool = True,
        on_model: Callable[[EmbedReport], None] | None = None,
        models: Iterable[str] | None = None,
    ) -> list[EmbedReport]:
        """Vectors of every paper for each model search fuses (`SEARCH_MODELS`: static,
        minilm-int8, use-multilingual; `models`: these instead), one model after the
        other, each resumable as `embed`; then the English vocabulary for Chinese queries
        (`vocabulary=False`: not now). `on_model` is called with each model's report as it
        finishes."""
        from paperatlas.embed import SEARCH_MODELS
        from paperatlas.ray_batches import shared_ray

        reports = []
        with shared_ray() if ray else contextlib.nullcontext():  # one Ray start for all models
            for model in SEARCH_MODELS if models is None else models:
                report = self.embed(
                    model=model,
                    progress=progress,
                    force=force,
                    batch_size=batch_size,
                    ray=ray,
                    address=address,
                    workers=workers,
                    vocabulary=False,
                )
                reports.append(report)
                if on_model is not None:
                    on_model(report)
        if vocabulary:
            self.build_vocabulary(progress=progress, force=force)
        return reports

    def build_word_matrix(self) -> int:
        """Fit the papers' TF-IDF vectors that recommendations rank by and save them beside the
        atlas, so a first `recommend` reads them (kept while the papers are unchanged: then
        this only reads them back); returns the vocabulary's size."""
        from paperatlas.embed.words import word_matrix

        return len(word_matrix(self.store)[2])

    def build_vocabulary(self, progress: bool = False, force: bool = False) -> VocabularyReport:
        """Embed the atlas's English terms with the multilingual model, so Chinese queries
        match them (skipped while current; PaperatlasError/ImportError if the model is not usable)."""
        from paperatlas.search.translate_vocabulary import build_vocabulary

        return VocabularyReport(**build_vocabulary(self.store, progress=progress, force=force))

    def ensure_vectors(
        self, model: str | None = None, progress: bool = False, vocabulary: bool = True
    ) -> EmbedReport | None:
        """Embed the papers that have no vector yet for the model a map would use (None:
        every paper already has one; embedding skips unchanged papers, so this is cheap).
        `vocabulary=False`: a fresh atlas's first run leaves the vocabulary for Chinese
        queries out (a map does not draw it; a small atlas builds it on the first Chinese
        query, see search/translate.py)."""
        from paperatlas.atlas import pick_model

        if model is None and not self.store.vector_models():
            return self.embed(progress=progress, vocabulary=vocabulary)
        target = model or pick_model(self.store, self.store.all_ids(), None)
        if len(self.store.vector_state(target)) < self.stats().papers:
            return self.embed(model=target, progress=progress)
        return None

    def search_status(self) -> SearchStatus:
        """Which signals search fuses are there now: per search model (in the order
        `embed_for_search` computes them) how many papers have vectors, and whether the
        English terms for Chinese queries are built. Counts only: cheap to ask often."""
        from paperatlas.embed import SEARCH_MODELS
        from paperatlas.search.translate_vocabulary import vocabulary_built

        papers = self.store.count_papers()
        models = tuple(ModelProgress(m, self.store.count_vectors(m), papers) for m in SEARCH_MODELS)
        return SearchStatus(papers, models, vocabulary_built(self.store, papers))

    def quick_start(
        self,
        paths: PathLike | Iterable[PathLike],
        list_name: str | None = None,
        progress: bool = False,
        facts_now: int | None = None,
    ) -> QuickStart:
        """The fast steps from files to a searchable atlas (what `paperatlas open` does
        before it serves): add the files, extract the facts of papers without them and
        embed them with the default model (a table lookup: seconds). `facts_now`: extract
        the facts only when at most this many papers lack them, else leave them to a later
        `enrich` (a conference's facts take minutes; keywords and the default model's
        vectors answer searches without them). Each step does only
        what is missing, so a rerun on the same files costs next to nothing: a file as its
        list was last added from is not read again (`add`'s `skip_unchanged`); the map is
        `build_map`'s, the heavier search models `embed_for_search`'s."""
        from paperatlas.embed import DEFAULT_MODEL

        if isinstance(paths, (str, os.PathLike)):
            paths = [paths]
        added = self.add(paths, list_name=list_name, progress=progress, enrich=False, skip_unchanged=True)
        pending = self.store.facts_pending()
        enriched = self.enrich(progress=progress) if facts_now is None or pending <= facts_now else None
        embedded = self.embed(model=DEFAULT_MODEL, progress=progress, vocabulary=False)
        return QuickStart(added, enriched, embedded, 0 if enriched is not None else pending)

    def map_is_current(self, list_name: str | None = None) -> bool:
        """Whether the stored map of a list (all papers when None) is that of its papers
        and vectors as they are: what `build_map` would reuse instead of building."""
        from paperatlas.atlas import map_is_current

        return bool(map_is_current(self.store, list_name))

    # -- search --------------------------------------------------------------------------------
    def search(
        self,
        query: str,
        k: int = 20,
        offset: int = 0,
        filters: Filters = ALL_PAPERS,
        method: str = "auto",
        exact: bool = False,
    ) -> SearchResult:
        """Keywords and meaning together (any language), among the papers `filters` let
        through; `method` = auto | keyword | semantic. Misspelt words are searched as the
        atlas's nearest words (`SearchResult.corrected` says so) unless `exact`."""
        from paperatlas.search import SearchConfig, search

        config = SearchConfig(spelling=not exact)
        return search(self.store, query, k=k, offset=offset, filters=filters, method=method, config=config)

    def similar(
        self,
        paper_id: str | None = None,
        text: str | None = None,
        k: int = 10,
        offset: int = 0,
        filters: Filters = ALL_PAPERS,
    ) -> SearchResult:
        """The papers most like a stored paper or a text, on every signal the atlas holds
        (keywords and each model's vectors, fused with learned weights), among the papers
        `filters` let through."""
        from paperatlas.search import similar

        return similar(self.store, paper_id=paper_id, text=text, k=k, offset=offset, filters=filters)

    # -- atlas ---------------------------------------------------------------------------------
    def build_map(
        self,
        list_name: str | None = None,
        model: str | None = None,
        force: bool = False,
        progress: bool = False,
    ) -> Map:
        """The topic map of a list (all papers when None): the stored one while its papers
        and vectors are unchanged (`built` False), else computed now."""
        from paperatlas.atlas import build_map

        stored = build_map(self.store, list_name=list_name, model=model, force=force, progress=progress)
        return Map(**stored)

    def write_map_png(self, map_: Map, path: PathLike) -> Path:
        """A publication-quality picture of the map."""
        from paperatlas.report.mapplot import write_png

        return Path(write_png(dict(map_), self.store, Path(path)))

    def write_map_html(self, map_: Map, path: PathLike, lang: str = "en") -> Path:
        """A self-contained interactive map (works offline); lang zh: topic labels as
        Chinese terms (a machine gloss)."""
        from paperatlas.report.mapplot import write_html
        from paperatlas.report.zh_card import localise_map_view

        relabel: Callable[[dict[str, Any]], dict[str, Any]] | None = None
        if lang == "zh":
            relabel = localise_map_view
        elif lang != "en":
            from paperatlas.errors import PaperatlasError

            raise PaperatlasError(f"unknown map language {lang!r} (en or zh)")
        return Path(write_html(dict(map_), self.store, Path(path), relabel=relabel))

    def references(self) -> list[ReferenceInfo]:
        """The references (fields lists are placed on) this atlas can use."""
        from paperatlas.atlas import reference

        current = reference.in_use_name(self.store)
        found = []
        for name in reference.names(self.store):
            ref = reference.load(self.store, name)
            if ref is not None:
                found.append(self._reference_info(ref, name == current))
        return found

    def build_reference(
        self, list_name: str, name: str | None = None, progress: bool = False
    ) -> ReferenceInfo:
        """Make a big list of the atlas (its papers embedded) the reference every list is
        placed on, and use it."""
        from paperatlas.atlas import reference
        from paperatlas.atlas.reference_build import build_reference

        ref = build_reference(self.store, list_name, name=name or list_name, progress=progress)
        reference.save(self.store, ref)
        return self._reference_info(ref, True)

    @staticmethod
    def _reference_info(ref: Any, in_use: bool) -> ReferenceInfo:
        return ReferenceInfo(
            name=ref.name,
            title=ref.meta.get("title", ref.name),
            papers=len(ref.xy),
            broad_topics=len(ref.broad_labels),
            fine_topics=len(ref.fine_labels),
            model=ref.model,
            in_use=in_use,
        )

    def use_reference(self, name: str) -> None:
        """Switch the reference lists are placed on (iclr2026: the shipped one)."""
        from paperatlas.atlas import reference

        reference.use(self.store, name)

    # -- take home -----------------------------------------------------------------------------
    def like(self, ids: Iterable[str], collection: str = "likes", value: int = 1) -> list[str]:
        """Mark papers liked (value 1) or disliked (-1) in a collection; returns their full ids."""
        from paperatlas.likes import mark

        self.store.require_writable("mark papers")
        return list(mark(self.store, ids, collection=collection, value=value))

    def dislike(self, ids: Iterable[str], collection: str = "likes") -> list[str]:
        """Mark papers not wanted: the collection's recommendations steer away from them."""
        return self.like(ids, collection=collection, value=-1)

    def unlike(self, ids: Iterable[str], collection: str = "likes") -> list[str]:
        """Remove likes or dislikes; returns the ids that were marked."""
        from paperatlas.likes import unmark

        self.store.require_writable("unmark papers")
        return list(unmark(self.store, ids, collection=collection))

    def collections(self) -> list[Collection]:
        """Collections by name, with their numbers of liked and disliked papers."""
        counts: dict[str, list[int]] = {}
        for name, _, value in self.store.marks():
            counts.setdefault(name, [0, 0])[0 if value > 0 else 1] += 1
        return [Collection(name, liked, disliked) for name, (liked, disliked) in sorted(counts.items())]

    # -- what a person keeps: triage state, notes, tags (store/kept.py) ----------------------
    def _full_ids(self, ids: Iterable[str]) -> list[str]:
        """Full ids for ids or unique prefixes as typed; PaperatlasError naming the unknown."""
        from paperatlas.likes import resolve_ids

        return resolve_ids(self.store, ids)

    def set_state(self, ids: Iterable[str], state: str | None) -> list[str]:
        """Mark papers read, skipped or saved for later (None: no state); returns their full ids."""
        from paperatlas.store.kept import check_state

        if state is not None:
            check_state(state)
        self.store.require_writable("mark papers")
        full = self._full_ids(ids)
        with self.store.transaction(fill_keys=False):
            for pid in full:
                self.store.set_state(pid, state)
        return full

    def set_note(self, paper_id: str, note: str) -> str:
        """Write a paper's Markdown note ('' removes it); returns its full id. A note over
        store.kept.MAX_NOTE characters or with control characters is refused."""
        from paperatlas.store.kept import clean_note

        note = clean_note(note)
        self.store.require_writable("write a note")
        (full,) = self._full_ids([paper_id])
        with self.store.transaction(fill_keys=False):
            self.store.set_note(full, note)
        return full

    def tag(self, ids: Iterable[str], tags: Iterable[str]) -> list[str]:
        """Tag papers; returns their full ids. Tags are cleaned (store.kept.clean_tag:
        lower case, no spaces); a tag that cannot be one is refused and nothing written."""
        from paperatlas.store.kept import clean_tag

        cleaned = [clean_tag(t) for t in tags]
        self.store.require_writable("tag papers")
        full = self._full_ids(ids)
        with self.store.transaction(fill_keys=False):
            for pid in full:
                self.store.add_tags(pid, cleaned)
        return full

    def untag(self, ids: Iterable[str], tags: Iterable[str]) -> list[str]:
        """Take tags off papers; returns the full ids that had one of them."""
        from paperatlas.store.kept import clean_tag

        cleaned = [clean_tag(t) for t in tags]
        self.store.require_writable("untag papers")
        full = self._full_ids(ids)
        with self.store.transaction(fill_keys=False):
            return [pid for pid in full if self.store.remove_tags(pid, cleaned)]

    def kept(self, ids: Iterable[str]) -> dict[str, Kept]:
        """Per paper id that has anything kept: its state, note and tags (one query for all)."""
        return {
            pid: Kept(state, note, tuple(tags))
            for pid, (state, note, tags) in self.store.kept_for(ids).items()
        }

    def ids_in_state(self, state: str) -> list[str]:
        """The ids of the papers in a state (read | skipped | saved), most recently marked first."""
        return self.store.ids_in_state(state)

    def state_counts(self) -> dict[str, int]:
        """state -> how many papers are in it."""
        return self.store.state_counts()

    def ids_with_tag(self, tag: str) -> list[str]:
        """The ids of the papers that carry a tag, most recently tagged first."""
        return self.store.ids_with_tag(tag)

    def tag_counts(self) -> dict[str, int]:
        """tag -> how many papers carry it, most used first."""
        return self.store.tag_counts()

    def export_personal(self, path: PathLike) -> dict[str, int]:
        """Write every mark, state, note, tag, follow and list's "last seen" to one JSON file
        (docs/formats.md); returns rows per kind."""
        from paperatlas.store.personal_file import write_personal

        return write_personal(self.store, Path(path))

    def import_personal(self, path: PathLike) -> PersonalImport:
        """Merge a personal-data file into the atlas (one transaction; a bad file is an
        InputError and nothing is written)."""
        from paperatlas.errors import InputError, PaperatlasError
        from paperatlas.store.personal_file import read_personal, restore_personal

        data = read_personal(Path(path))
        self.store.require_writable("import personal data")
        try:
            report = restore_personal(self.store, data)
        except PaperatlasError as exc:  # a note merged with the atlas's own past the limit
            raise InputError(path, str(exc)) from None
        return PersonalImport(
            report.marks,
            report.states,
            report.notes,
            report.tags,
            report.marks_missing,
            report.follows,
            report.list_seen,
        )

    # -- follow --------------------------------------------------------------------------------
    def follow_search(self, query: str, filters: Filters = ALL_PAPERS) -> tuple[Follow, bool]:
        """Save a search (its words and filters) to follow: (the follow, whether it is new)."""
        from paperatlas.report.follows import add_search

        return add_search(self.store, query, filters)

    def follow_author(self, name: str) -> tuple[Follow, bool]:
        """Follow an author, as lists write the name (case, accents and spacing ignored)."""
        from paperatlas.report.follows import add_author

        return add_author(self.store, name)

    def follow_topic(
        self, topic_id: int, level: int = 0, list_name: str | None = None
    ) -> tuple[Follow, bool]:
        """Follow a topic of the map of a list (None: of all papers); level 0 broad, 1 fine."""
        from paperatlas.report.follows import add_topic

        return add_topic(self.store, list_name, level, topic_id)

    def follows(self) -> list[Follow]:
        """Everything followed, oldest first."""
        from paperatlas.report.follows import follows

        return follows(self.store)

    def unfollow(self, follow_id: int) -> bool:
        """Stop following; False if there was no such follow."""
        self.store.require_writable("unfollow")
        with self.store.transaction(fill_keys=False):
            return self.store.remove_follow(follow_id)

    def followed_papers(
        self, follow_id: int | None = None, after_last_feed: bool = False, limit: int = 200
    ) -> list[FollowedPaper]:
        """The papers the follows (or one follow) matched that were added since the follow
        was made (`after_last_feed`: since the last `feed` written), newest first.
        PaperatlasError for an unknown follow id."""
        from paperatlas.report.follows import followed_papers

        return followed_papers(self.store, self._chosen_follows(follow_id), after_last_feed, limit)

    def feed(
        self,
        follow_id: int | None = None,
        site_url: str | None = None,
        self_url: str | None = None,
        after_last_feed: bool = False,
    ) -> str:
        """An Atom feed (text) of `followed_papers`; entries link to the atlas served at
        `site_url` when one is given, else to each paper's own page."""
        return self._feed(self._chosen_follows(follow_id), follow_id, site_url, self_url, after_last_feed)[0]

    def write_feed(self, path: PathLike, follow_id: int | None = None, site_url: str | None = None) -> int:
        """Write the Atom feed of the papers added since the last feed was written (or since
        each follow was made) and remember this feed; returns how many entries it holds."""
        self.store.require_writable("write a feed")
        chosen = self._chosen_follows(follow_id)
        text, count = self._feed(chosen, follow_id, site_url, None, after_last_feed=True)
        Path(path).write_text(text, encoding="utf-8")
        with self.store.transaction(fill_keys=False):
            self.store.set_fed(f.id for f in chosen)
        return count

    def _feed(
        self,
        chosen: list[Follow],
        follow_id: int | None,
        site_url: str | None,
        self_url: str | None,
        after_last_feed: bool,
    ) -> tuple[str, int]:
        from paperatlas.report.feed import feed_xml
        from paperatlas.report.follows import followed_papers

        entries = followed_papers(self.store, chosen, after_last_feed)
        title = chosen[0].title if follow_id is not None else "paperatlas: what I follow"
        feed_id = f"urn:paperatlas:feed:{follow_id}" if follow_id is not None else "urn:paperatlas:feed"
        updated = entries[0].added_at if entries else max((f.created_at for f in chosen), default="")
        text = feed_xml(entries, title, feed_id, updated, self_url=self_url, site_url=site_url)
        return text, len(entries)

    def _chosen_follows(self, follow_id: int | None) -> list[Follow]:
        every = self.follows()
        if follow_id is None:
            return every
        chosen = [f for f in every if f.id == follow_id]
        if not chosen:
            raise PaperatlasError(f"no follow {follow_id} (see `paperatlas follow ls`)")
        return chosen

    def follow_data(self) -> dict[str, list[dict[str, Any]]]:
        """Follows and "last seen" times as plain rows, for an export of personal data."""
        return self.store.follow_data()

    def put_follow_data(self, data: dict[str, list[dict[str, Any]]]) -> None:
        """Store rows `follow_data` gave (an import of personal data): a follow already
        here stays, a list's "last seen" becomes the later one. Every row is checked first
        (PaperatlasError naming the section and entry; nothing written)."""
        from paperatlas.store.personal_file import check_follow_data

        follows, seen = check_follow_data(data)
        self.store.require_writable("import follows")
        with self.store.transaction(fill_keys=False):
            self.store.put_follow_data(follows, seen)

    # -- new since the last visit ------------------------------------------------------------------
    def new_papers(self, list_name: str) -> list[str]:
        """Ids of the list's papers added since the person last marked it seen (every paper
        of a list never seen), newest first."""
        return self.store.list_new_ids(list_name, self.store.list_seen().get(list_name))

    def new_counts(self) -> dict[str, int]:
        """list -> how many of its papers are new since it was last seen (lists with none left out)."""
        seen = self.store.list_seen()
        counts = {name: len(self.store.list_new_ids(name, seen.get(name))) for name in self.lists()}
        return {name: n for name, n in counts.items() if n}

    def mark_seen(self, list_name: str) -> str | None:
        """Everything now in the list counts as seen; the time seen up to (None: an empty list)."""
        self.store.require_writable("mark a list seen")
        with self.store.transaction(fill_keys=False):
            return self.store.mark_list_seen(list_name)

    # -- a personal schedule ---------------------------------------------------------------------
    def write_schedule(self, path: PathLike, collection: str = "likes") -> tuple[int, int]:
        """Write an iCalendar file of the saved and liked papers a program gives a time for;
        (events written, papers saved or liked)."""
        from paperatlas.report.schedule import calendar_bytes

        ids = dict.fromkeys(
            [*(r["id"] for r in self.papers(Filters(state="saved"))), *self.liked_ids(collection)]
        )
        data, count = calendar_bytes(self.store.get_papers(ids))
        Path(path).write_bytes(data)
        return count, len(ids)

    def recommend(
        self,
        collection: str = "likes",
        k: int = 30,
        filters: Filters = ALL_PAPERS,
        model: str | None = None,
    ) -> Recommendations:
        """The k best unseen papers like the collection's liked ones, each with its
        reasons, among the papers `filters` let through (`model`: the vectors to read;
        default: every model the atlas holds)."""
        from paperatlas.recommend import recommend

        return recommend(self.store, collection=collection, k=k, model=model, filters=filters)

    def digest(
        self,
        fmt: str = "md",
        lang: str = "en",
        list_name: str | None = None,
        collection: str | None = None,
        output: PathLike | None = None,
        progress: bool = False,
        filters: Filters = ALL_PAPERS,
        query: str | None = None,
        query_k: int = 100,
    ) -> str:
        """A shareable report grouped by topic (md | html; en | zh: in Chinese, every paper
        line, area and topic label as Chinese terms, a machine gloss), of one list or a
        collection's liked papers, narrowed by `filters` or to a search's `query_k` best hits
        (`query`). `output` (Markdown only): where the caller will write
        it, so the map is written beside it as a PNG (else inlined)."""
        from paperatlas.report.digest import digest

        return digest(
            self.store,
            fmt=fmt,
            lang=lang,
            list_name=list_name,
            collection=collection,
            output=Path(output) if output is not None else None,
            progress=progress,
            filters=filters,
            query=query,
            query_k=query_k,
        )

    # -- Chinese, offline (machine gloss: report/zh_card.py, search/zh_terms.py) ------------
    @staticmethod
    def zh_card(paper: Mapping[str, Any], topic: str | None = None) -> ZhCard:
        """A paper's offline Chinese card (kind, area, decision, name, headline number,
        keyphrases, and `topic`, its topic's English label, as Chinese terms), from the
        paper as `paper()` gives it (its stored fields and `facts`)."""
        from paperatlas.report.zh_card import card

        return card(dict(paper), dict(paper.get("facts") or {}), topic=topic)

    @staticmethod
    def zh_gloss(what: str, value: str | None) -> str | None:
        """`value` in Chinese: what is 'kind', 'area', 'decision', 'label' (a topic's) or
        'term' (any English term); None for no value."""
        from paperatlas.report import zh_card

        if not value:
            return None
        if what == "kind":
            return zh_card.KINDS.get(value, value)
        if what == "area":
            return zh_card.area_zh(value)
        if what == "decision":
            return zh_card.decision_zh(value)
        if what == "label":
            return zh_card.label_to_chinese(value)
        if what == "term":
            return zh_card.to_chinese(value)
        raise ValueError(f"unknown gloss {what!r}")

    @staticmethod
    def zh_recommendations(picks: Recommendations) -> dict[str, Any]:
        """`recommend()`'s words in Chinese: {"reasons": {paper id: sentences}, "method":
        how they were ranked, "hints": what would make them better}; titles stay as they are."""
        from paperatlas.report import zh_reasons

        return {
            "reasons": {p.paper_id: zh_reasons.reasons_zh(p) for p in picks},
            "method": zh_reasons.method_zh(picks.method),
            "hints": zh_reasons.hints_zh(picks),
        }

    # -- a model the user brings (llm/): used only when asked --------------------------------
    def llm_estimate(
        self, task: str, concurrency: int = 8, list_name: str | None = None, limit: int | None = None
    ) -> LlmEstimate:
        """Papers without an answer, tokens, and (after some calls) time a run would take."""
        from paperatlas.llm import endpoint_from_env, estimate

        return estimate(self.store, task, endpoint_from_env(), concurrency, list_name, limit)

    def llm_run(
        self,
        task: str,
        concurrency: int = 8,
        list_name: str | None = None,
        limit: int | None = None,
        progress: bool = False,
    ) -> LlmReport:
        """Ask the configured endpoint (PAPERATLAS_LLM_BASE_URL, _MODEL, _API_KEY) for every
        paper lacking an answer: summarize (one Chinese sentence), title (Chinese), title-en
        (English, untitled papers only). Resumable; answers naming a number or name the
        abstract lacks are rejected and counted."""
        from paperatlas.llm import endpoint_from_env, run_task

        return run_task(self.store, task, endpoint_from_env(), concurrency, list_name, limit, progress)

    def llm_summaries(self, ids: list[str]) -> dict[str, str]:
        """Per paper, the Chinese summary a model wrote and the checks accepted (none: absent)."""
        return {pid: a["output"] for pid, a in self.store.llm_accepted(ids, "summarize").items()}

    def llm_answers(self, paper_id: str) -> dict[str, dict[str, Any]]:
        """A paper's accepted answers by task ({"summarize": {"output", "model", "prompt"}})."""
        from paperatlas.llm import TASKS

        return {
            task: found[paper_id]
            for task in TASKS
            if paper_id in (found := self.store.llm_accepted([paper_id], task))
        }

    @staticmethod
    def zh_map_labels(view: dict[str, Any]) -> dict[str, Any]:
        """A map view (`map_view`) with its topic labels as Chinese terms (`label_en`: the
        English), changed in place and returned."""
        from paperatlas.report.zh_card import localise_map_view

        return localise_map_view(view)

    def compare(
        self, list_a: str, list_b: str, png: PathLike | None = None, n_terms: int = 25, n_names: int = 25
    ) -> Comparison:
        """Two lists side by side: shares by area and topic, risers, fallers, what is new
        (`n_terms` rising and falling terms, `n_names` names; `png`: the chart drawn there)."""
        from paperatlas.compare import compare_lists

        return compare_lists(
            self.store,
            list_a,
            list_b,
            png=Path(png) if png is not None else None,
            n_terms=n_terms,
            n_names=n_names,
        )

    # -- what the web app's pages read (web/ imports nothing else of the library) -------------
    def generation(self) -> StoreGeneration:
        """A commit counter every thread shares (`.current()`), to key caches of derived pages on."""
        return self.store.generation()

    def stored_map(self, scope: str) -> dict[str, Any] | None:
        """The map stored for a list ('*': of all papers) as the store keeps it; None if none."""
        return self.store.get_map(scope)

    def map_reader(self, scope: str) -> MapReader | None:
        """The map stored for a list ('*': all papers) read a piece at a time (header and
        topics, points by page, a few points' cards): what a server of a 1M-paper map reads."""
        from paperatlas.atlas.view import map_reader

        return map_reader(self.store, scope)

    def collection_members(self, collection: str = "likes") -> list[str]:
        """The ids of the papers liked in a collection, most recently liked first."""
        from paperatlas.likes import liked_ids

        return list(reversed(liked_ids(self.store, collection)))

    def liked_ids(self, collection: str = "likes") -> set[str]:
        """The ids of the papers liked (not disliked) in a collection."""
        from paperatlas.likes import liked_ids

        return set(liked_ids(self.store, collection))

    def card_facts(self, ids: list[str]) -> dict[str, dict[str, Any]]:
        """Per id, the facts a paper's card shows (name, kind, has_code, display_title, gist)."""
        return self.store.card_facts(ids)

    def resolve_id(self, paper_id: str) -> str | None:
        """The full id of a paper named by its id or a unique id prefix; None when none is."""
        return self.store.resolve_id(paper_id)

    def similar_papers(self, paper: Mapping[str, Any], k: int = 10) -> list[dict[str, Any]]:
        """The k papers most like a stored paper (as `similar` ranks them), as rows."""
        from paperatlas.embed import embedding_text
        from paperatlas.search import similar_to_paper

        text = embedding_text(paper.get("title"), paper.get("abstract"))
        ranked = similar_to_paper(self.store, paper["id"], text, k)
        rows = {r["id"]: r for r in self.store.iter_papers(ids=[pid for pid, _ in ranked])}
        return [rows[pid] for pid, _ in ranked if pid in rows]

    def similar_models_missing(self) -> list[str]:
        """The models `similar` weighs that this atlas has no vectors of: what `paperatlas
        embed` would add to its likeness (empty when it holds them all)."""
        from paperatlas.search.similar_signals import missing_models

        return missing_models(self.store)

    def preload(self, similar: int | None = None) -> None:
        """Read now what a server's first queries would wait for (postings, Chinese terms),
        and with `similar`, every paper's `similar` most similar papers (what
        `similar_papers(paper, k=similar)` then looks up, while the vectors are unchanged)."""
        from contextlib import suppress

        from paperatlas.errors import PaperatlasError
        from paperatlas.search import keyword, precompute_similar, search

        keyword.preload(self.store)
        with suppress(PaperatlasError):  # no vectors yet: no cross-lingual terms to load
            search(self.store, "预热", k=1)  # what a first Chinese query would load (seconds)
        if similar:
            precompute_similar(self.store, similar)
