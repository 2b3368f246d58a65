"""`Atlas`: the library face of paperatlas, and the only way in for the CLI and the web app.

A method that is more than one store read hands its work to the module of the package
named for its role (steps, answers, readouts, personal, feeds, copies), which imports the
pipeline stage that owns it only when it runs, so that `import paperatlas` stays fast. Every answer is a typed record
from `paperatlas.results`.

    with Atlas(".paperatlas/atlas.db") as atlas:
        atlas.add("iclr2026.jsonl")
        atlas.embed_for_search()
        hits = atlas.search("memory privacy").hits
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from paperatlas.api import answers, copies, feeds, personal, readouts, steps
from paperatlas.cache import StoreCache
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
    PaperDetail,
    PersonalImport,
    QuickStart,
    ReferenceInfo,
    SearchStatus,
    VocabularyReport,
)
from paperatlas.store import Store

if TYPE_CHECKING:
    from paperatlas.atlas import TopicLookup
    from paperatlas.compare import Comparison
    from paperatlas.ingest import AddReport
    from paperatlas.llm import Estimate as LlmEstimate
    from paperatlas.llm import RunReport as LlmReport
    from paperatlas.recommend import Recommendations
    from paperatlas.report.follows import Follow, FollowedPaper
    from paperatlas.report.my_topics import ChosenTopics
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
        return copies.default_path()

    @staticmethod
    def restore(copy: PathLike, db: PathLike | None = None, force: bool = False) -> Path | None:
        """Put an atlas copy (`Atlas.backup`'s file) in place of the atlas at `db`, checked first
        (StoreError, nothing changed); an atlas there is replaced only with `force` and kept
        as ATLAS.bak (the path returned; None when there was none)."""
        return copies.restore(Path(copy), Path(db) if db is not None else None, force)

    def backup(self, path: PathLike) -> int:
        """Copy the whole atlas to one SQLite file, as of one commit (safe while a server
        reads or another process writes); a file there is replaced only if it is an atlas
        (StoreError otherwise). Returns the copy's size in bytes."""
        return copies.backup(self.store, Path(path))

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

    def __exit__(self, *exc_info: object) -> None:
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
        `li.pub`; docs/formats.md), kept with the list. `skip_unchanged`: a file as its list
        was last added from (size, time, content; the list unchanged since) is not read (`not_read`)."""
        return steps.add(self.store, paths, list_name, progress, enrich, dry_run, records, skip_unchanged)

    @staticmethod
    def inspect(path: PathLike, limit: int = 10, records: str | None = None) -> Inspection:
        """Read one file without storing (no atlas needed: `Atlas.inspect(path)`): its FileReport
        and the first `limit` papers as they would be stored (`records`: as in `add`)."""
        return steps.inspect(Path(path), limit, records)

    @staticmethod
    def file_format(path: PathLike) -> str:
        """The format `add` reads a file as (jsonl, csv, bibtex, ...); InputError if none."""
        return steps.file_format(Path(path))

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
        section heading (`section`), one map topic's rows (`map_rows`), only `ids`; sorted by
        title, rating or name (`sort`), else in list order; a page of `limit` from `offset`.
        Each row: the paper's fields plus kind, name, has_code, display_title, predicted_area."""
        return readouts.papers(self.store, filters, text, section, sort, limit, offset, ids, map_rows)

    def count_papers(
        self,
        filters: Filters = ALL_PAPERS,
        text: str | None = None,
        section: str | None = None,
        map_rows: Iterable[int] | None = None,
    ) -> int:
        """How many stored papers `papers` would give (without limit), counted in SQLite."""
        return self.store.papers.count_matching(filters, text=text, section=section, map_rows=map_rows)

    def paper(self, paper_id: str, topics: bool = True) -> PaperDetail | None:
        """One paper with its lists and facts, by id or unique id prefix. `topics=False`
        leaves out `topic` and `reference_topic` (the first call after a store change reads
        whole stored maps: ~40 ms on 10k papers; later calls reuse them)."""
        return readouts.paper_detail(self.store, paper_id, self._topic_lookup if topics else None)

    def _topic_lookup(self) -> TopicLookup:
        """One TopicLookup (its stored maps parsed once) until the store changes."""
        return readouts.topic_lookup(self.store, self._topics)

    def stats(self, list_name: str | None = None) -> ListStats:
        """Papers, papers with a title, counts by area and by decision (one list or all)."""
        return ListStats(**self.store.lists.stats(list_name))

    def lists(self) -> list[str]:
        return self.store.lists.names()

    def export(
        self,
        fmt: str,
        out: PathLike | TextIO,
        filters: Filters = ALL_PAPERS,
        collection: str | None = None,
        query: str | None = None,
        query_k: int = 100,
        ids: Iterable[str] | None = None,
        exact: bool = False,
    ) -> int:
        """Write papers as jsonl|csv|bibtex|ris|csl-json|markdown, or as markdown-folder (`out`
        a folder: one file per paper) (`results.EXPORT_FORMATS`): those `filters` let through,
        or a collection's liked papers or a search's `query_k` best hits (`query`, as typed if `exact`), narrowed by
        `filters` and to `ids` when given; returns how many. BibTeX, RIS, CSL-JSON, folder: with notes, tags."""
        return answers.export(self.store, fmt, out, filters, collection, query, query_k, ids, exact)

    def bibtex(self, paper_id: str) -> str:
        """One paper's BibTeX entry as `export("bibtex")` writes it ("" for an unknown id)."""
        return answers.bibtex(self.store, paper_id)

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
        return steps.enrich(self.store, force, progress, ray, address, workers)

    def facts_pending(self) -> bool:
        """Whether some paper has no current facts (an interrupted `add` or `enrich`)."""
        return bool(self.store.facts.pending())

    @staticmethod
    def fact_rows(facts: dict[str, Any]) -> list[FactRow]:
        """A paper's facts one line each, as a reader wants them: ("kind", "benchmark
        (also: dataset)"), ("numbers", "up to 69% attribute-level violations · ...")."""
        return readouts.fact_rows(facts)

    @staticmethod
    def train_areas(
        data: PathLike, out: PathLike | None = None, include_held_out: bool = False, progress: bool = False
    ) -> AreaModelReport:
        """Train the research-area classifier from labelled papers (JSONL rows with title,
        abstract, primary_area) and save it (default: the model shipped in the package)."""
        return steps.train_areas(
            Path(data), Path(out) if out is not None else None, include_held_out, progress
        )

    # -- vectors -----------------------------------------------------------------------------
    @staticmethod
    def models() -> list[ModelInfo]:
        """The embedding back ends `embed(model=...)` accepts (`default`: used when none is
        named; `search`: search fuses it, `embed_for_search` computes it)."""
        return steps.models()

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
        committed `batch_size` papers at a time; `ray`, `address`, `workers`: as `enrich`.
        The default model's run also embeds the atlas's English vocabulary for Chinese
        queries (`vocabulary=False`: not now; see build_vocabulary)."""
        return steps.embed(self.store, model, progress, force, batch_size, ray, address, workers, vocabulary)

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
        minilm-int8, use-multilingual; `models`: these instead), one after the other, each
        resumable as `embed`; then the English vocabulary for Chinese queries (`vocabulary=
        False`: not now). `on_model` is called with each model's report as it finishes."""
        return steps.embed_for_search(
            self.store, progress, force, batch_size, ray, address, workers, vocabulary, on_model, models
        )

    def build_vocabulary(self, progress: bool = False, force: bool = False) -> VocabularyReport:
        """Embed the atlas's English terms with the multilingual model, so Chinese queries
        match them (skipped while current; PaperatlasError/ImportError if the model is not usable)."""
        return steps.build_vocabulary(self.store, progress, force)

    def ensure_vectors(
        self, model: str | None = None, progress: bool = False, vocabulary: bool = True
    ) -> EmbedReport | None:
        """Embed the papers that have no vector yet for the model a map would use (None:
        every paper already has one; cheap: embedding skips unchanged papers).
        `vocabulary=False`: a fresh atlas's first run leaves the vocabulary for Chinese
        queries out (a small atlas builds it on the first Chinese query, search/translate.py)."""
        return steps.ensure_vectors(self.store, model, progress, vocabulary)

    def search_status(self) -> SearchStatus:
        """Which signals search fuses are there now: per search model (in the order
        `embed_for_search` computes them) how many papers have vectors, and whether the
        English terms for Chinese queries are built. Counts only: cheap to ask often."""
        return steps.search_status(self.store)

    def quick_start(
        self,
        paths: PathLike | Iterable[PathLike],
        list_name: str | None = None,
        progress: bool = False,
        facts_now: int | None = None,
    ) -> QuickStart:
        """The fast steps from files to a searchable atlas (what `paperatlas open` does before it
        serves): add the files, extract the facts of papers without them and embed them with the
        default model (a table lookup: seconds). `facts_now`: extract the facts only when at most this
        many papers lack them, else leave them to a later `enrich` (a conference's take minutes). Each
        step does only what is missing: a file as its list was last added from is not read again."""
        return steps.quick_start(self.store, paths, list_name, progress, facts_now)

    def map_is_current(self, list_name: str | None = None) -> bool:
        """Whether the stored map of a list (None: all papers) is of its papers and vectors now (`build_map` reuses it)."""
        return readouts.map_is_current(self.store, list_name)

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
        return answers.search(self.store, query, k, offset, filters, method, exact)

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
        return answers.similar(self.store, paper_id, text, k, offset, filters)

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
        return readouts.build_map(self.store, list_name, model, force, progress)

    def write_map_png(self, map_: Map, path: PathLike) -> Path:
        """A publication-quality picture of the map."""
        return readouts.write_map_png(self.store, map_, Path(path))

    def write_map_html(self, map_: Map, path: PathLike, lang: str = "en") -> Path:
        """A self-contained interactive map (works offline); lang zh: topic labels as
        Chinese terms (a machine gloss)."""
        return readouts.write_map_html(self.store, map_, Path(path), lang)

    def references(self) -> list[ReferenceInfo]:
        """The references (fields lists are placed on) this atlas can use."""
        return readouts.references(self.store)

    def build_reference(
        self, list_name: str, name: str | None = None, progress: bool = False
    ) -> ReferenceInfo:
        """Make a big list of the atlas (its papers embedded) the reference every list is
        placed on, and use it."""
        return readouts.build_reference(self.store, list_name, name, progress)

    def use_reference(self, name: str) -> None:
        """Switch the reference lists are placed on (iclr2026: the shipped one)."""
        readouts.use_reference(self.store, name)

    # -- what a person keeps: likes, triage state, notes, tags -----------------------------------
    def like(self, ids: Iterable[str], collection: str = "likes", value: int = 1) -> list[str]:
        """Mark papers liked (value 1) or disliked (-1) in a collection; returns their full ids."""
        return personal.like(self.store, ids, collection, value)

    def dislike(self, ids: Iterable[str], collection: str = "likes") -> list[str]:
        """Mark papers not wanted: the collection's recommendations steer away from them."""
        return self.like(ids, collection=collection, value=-1)

    def unlike(self, ids: Iterable[str], collection: str = "likes") -> list[str]:
        """Remove likes or dislikes; returns the ids that were marked."""
        return personal.unlike(self.store, ids, collection)

    def collections(self) -> list[Collection]:
        """Collections by name, with their numbers of liked and disliked papers."""
        return personal.collections(self.store)

    def set_state(self, ids: Iterable[str], state: str | None) -> list[str]:
        """Mark papers read, skipped or saved for later (None: no state); returns their full ids."""
        return personal.set_state(self.store, ids, state)

    def set_note(self, paper_id: str, note: str) -> str:
        """Write a paper's Markdown note ('' removes it); returns its full id. A note over
        store.kept.MAX_NOTE characters or with control characters is refused."""
        return personal.set_note(self.store, paper_id, note)

    def tag(self, ids: Iterable[str], tags: Iterable[str]) -> list[str]:
        """Tag papers; returns their full ids. Tags are cleaned (store.kept.clean_tag:
        lower case, no spaces); a tag that cannot be one is refused and nothing written."""
        return personal.tag(self.store, ids, tags)

    def untag(self, ids: Iterable[str], tags: Iterable[str]) -> list[str]:
        """Take tags off papers; returns the full ids that had one of them."""
        return personal.untag(self.store, ids, tags)

    def kept(self, ids: Iterable[str]) -> dict[str, Kept]:
        """Per paper id that has anything kept: its state, note and tags (one query for all)."""
        return personal.kept(self.store, ids)

    def ids_in_state(self, state: str) -> list[str]:
        """The ids of the papers in a state (read | skipped | saved), most recently marked first."""
        return self.store.kept.ids_in_state(state)

    def state_counts(self) -> dict[str, int]:
        """state -> how many papers are in it."""
        return self.store.kept.state_counts()

    def ids_with_tag(self, tag: str) -> list[str]:
        """The ids of the papers that carry a tag, most recently tagged first."""
        return self.store.kept.ids_with_tag(tag)

    def tag_counts(self) -> dict[str, int]:
        """tag -> how many papers carry it, most used first."""
        return self.store.kept.tag_counts()

    def export_personal(self, path: PathLike) -> dict[str, int]:
        """Write every mark, state, note, tag, follow and list's "last seen" to one JSON file
        (docs/formats.md); returns rows per kind."""
        return personal.export_personal(self.store, Path(path))

    def import_personal(self, path: PathLike) -> PersonalImport:
        """Merge a personal-data file into the atlas (one transaction; a bad file: InputError, nothing written)."""
        return personal.import_personal(self.store, Path(path))

    # -- follow --------------------------------------------------------------------------------
    def follow_search(self, query: str, filters: Filters = ALL_PAPERS) -> tuple[Follow, bool]:
        """Save a search (its words and filters) to follow: (the follow, whether it is new)."""
        return feeds.follow_search(self.store, query, filters)

    def follow_author(self, name: str) -> tuple[Follow, bool]:
        """Follow an author, as lists write the name (case, accents and spacing ignored)."""
        return feeds.follow_author(self.store, name)

    def follow_topic(
        self, topic_id: int, level: int = 0, list_name: str | None = None
    ) -> tuple[Follow, bool]:
        """Follow a topic of the map of a list (None: of all papers); level 0 broad, 1 fine."""
        return feeds.follow_topic(self.store, topic_id, level, list_name)

    def follows(self) -> list[Follow]:
        """Everything followed, oldest first."""
        return feeds.follows(self.store)

    def unfollow(self, follow_id: int) -> bool:
        """Stop following; False if there was no such follow."""
        return feeds.unfollow(self.store, follow_id)

    def followed_papers(
        self, follow_id: int | None = None, after_last_feed: bool = False, limit: int = 200
    ) -> list[FollowedPaper]:
        """The papers the follows (or one follow) matched that were added since the follow
        was made (`after_last_feed`: since the last `feed` written), newest first.
        PaperatlasError for an unknown follow id."""
        return feeds.followed_papers(self.store, follow_id, after_last_feed, limit)

    def feed(
        self,
        follow_id: int | None = None,
        site_url: str | None = None,
        self_url: str | None = None,
        after_last_feed: bool = False,
    ) -> str:
        """An Atom feed (text) of `followed_papers`; entries link to the atlas served at
        `site_url` when one is given, else to each paper's own page."""
        return feeds.feed(self.store, follow_id, site_url, self_url, after_last_feed)[0]

    def write_feed(self, path: PathLike, follow_id: int | None = None, site_url: str | None = None) -> int:
        """Write the Atom feed of the papers added since the last feed was written (or since
        each follow was made) and remember this feed; returns how many entries it holds."""
        return feeds.write_feed(self.store, Path(path), follow_id, site_url)

    def follow_data(self) -> dict[str, list[dict[str, Any]]]:
        """Follows and "last seen" times as plain rows, for an export of personal data."""
        return self.store.follows.data()

    def put_follow_data(self, data: dict[str, list[dict[str, Any]]]) -> None:
        """Store rows `follow_data` gave (an import of personal data): a follow already
        here stays, a list's "last seen" becomes the later one. Every row is checked first
        (PaperatlasError naming the section and entry; nothing written)."""
        personal.put_follow_data(self.store, data)

    def new_papers(self, list_name: str) -> list[str]:
        """Ids of the list's papers added since the person last marked it seen (every paper
        of a list never seen), newest first."""
        return self.store.follows.list_new_ids(list_name, self.store.follows.list_seen().get(list_name))

    def mark_seen(self, list_name: str) -> str | None:
        """Everything now in the list counts as seen; the time seen up to (None: an empty list)."""
        return personal.mark_seen(self.store, list_name)

    def write_schedule(self, path: PathLike, collection: str = "likes") -> tuple[int, int]:
        """Write an iCalendar file of the saved and liked papers a program gives a time for;
        (events written, papers saved or liked)."""
        return personal.write_schedule(self.store, Path(path), collection)

    def recommend(
        self, collection: str = "likes", k: int = 30, filters: Filters = ALL_PAPERS, model: str | None = None
    ) -> Recommendations:
        """The k best unseen papers like the collection's liked ones, each with its
        reasons, among the papers `filters` let through (`model`: the vectors to read;
        default: every model the atlas holds)."""
        return answers.recommend(self.store, collection, k, filters, model)

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
        topic: str | None = None,
        new: bool = False,
        section: str | None = None,
        ids: Iterable[str] | None = None,
        exact: bool = False,
    ) -> str:
        """A shareable report grouped by topic (md | html; en | zh: every paper line, area and
        topic label as Chinese terms, a machine gloss) of a list or a collection's likes, narrowed
        by `filters`, a search's best hits (`query`, as typed if `exact`), map topics (`topic`: `mine`, a label),
        papers new since the list was seen (`new`), a heading holding `section`, `ids` (a topic's
        papers as a caller holds them; `topic` then only names it). `output` (md): the map is put beside it."""
        chosen = (filters, query, query_k, topic, new, section, ids, exact)
        return answers.digest(self.store, fmt, lang, list_name, collection, output, progress, *chosen)

    def topics_named(
        self, topic: str = "mine", list_name: str | None = None, reader: Any = None, papers: bool = False
    ) -> ChosenTopics:
        """The map topics `topic` names (`mine`: followed, or of liked papers; else a label)."""
        return readouts.topics_named(self.store, topic, list_name, reader, papers)

    @staticmethod
    def zh_card(paper: Mapping[str, Any], topic: str | None = None) -> ZhCard:
        """A paper's offline Chinese card (kind, area, decision, name, headline number,
        keyphrases, and `topic`, its topic's English label, as Chinese terms), from the
        paper as `paper()` gives it (its stored fields and `facts`)."""
        return readouts.zh_card(paper, topic)

    # -- a model the user brings (llm/): used only when asked --------------------------------
    def llm_estimate(
        self, task: str, concurrency: int = 8, list_name: str | None = None, limit: int | None = None
    ) -> LlmEstimate:
        """Papers without an answer, tokens, and (after some calls) time a run would take."""
        return answers.llm_estimate(self.store, task, concurrency, list_name, limit)

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
        return answers.llm_run(self.store, task, concurrency, list_name, limit, progress)

    def compare(
        self, list_a: str, list_b: str, png: PathLike | None = None, n_terms: int = 25, n_names: int = 25
    ) -> Comparison:
        """Two lists side by side: shares by area and topic, risers, fallers, what is new
        (`n_terms` rising and falling terms, `n_names` names; `png`: the chart drawn there)."""
        out = Path(png) if png is not None else None
        return answers.compare(self.store, list_a, list_b, out, n_terms, n_names)

    def resolve_id(self, paper_id: str) -> str | None:
        """The full id of a paper named by its id or a unique id prefix; None when none is."""
        return self.store.papers.resolve_id(paper_id)
