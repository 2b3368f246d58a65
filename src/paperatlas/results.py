"""What `Atlas` returns: one typed record per kind of answer, named in one place.

The records made here (`Map`, `PaperDetail`, `ListStats`, `EnrichReport`, `EmbedReport`, ...)
are dataclasses that also read as read-only mappings (`stats["papers"]`, `dict(map)`), so
code written against the dicts `Atlas` used to return keeps working while new code uses
the typed attributes. The records a stage already defines (`SearchResult`, `Hit`,
`AddReport`, `FileReport`, `Comparison`, `Recommendations`, `Pick`, `Follow`,
`FollowedPaper`) are re-exported from
that stage on first use, so importing this module (as the CLI does) loads no stage.

The CLI and the web app take their types and constants (`KINDS`, `EXPORT_FORMATS`,
`DIGEST_FORMATS`, `DIGEST_LANGUAGES`, `MAP_OVERVIEW`) from here, never from the stages themselves.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from functools import cached_property
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paperatlas.atlas.sample import OVERVIEW as MAP_OVERVIEW
    from paperatlas.compare import Comparison as Comparison
    from paperatlas.compare import ShareRow as ShareRow
    from paperatlas.enrich.kinds import KINDS as KINDS
    from paperatlas.ingest import AddReport as AddReport
    from paperatlas.ingest import FileReport as FileReport
    from paperatlas.recommend import Pick as Pick
    from paperatlas.recommend import Recommendations as Recommendations
    from paperatlas.report.digest import FORMATS as DIGEST_FORMATS
    from paperatlas.report.export import FORMATS as EXPORT_FORMATS
    from paperatlas.report.follows import Follow as Follow
    from paperatlas.report.follows import FollowedPaper as FollowedPaper
    from paperatlas.report.strings import LANGUAGES as DIGEST_LANGUAGES
    from paperatlas.search import Hit as Hit
    from paperatlas.search import SearchResult as SearchResult
    from paperatlas.search.results import WHY_WORDS as HIT_WHY_WORDS

# name -> (module, attribute): records and constants owned by a stage, imported on first use
_FROM_STAGES = {
    "AddReport": ("paperatlas.ingest", "AddReport"),
    "FileReport": ("paperatlas.ingest", "FileReport"),
    "SearchResult": ("paperatlas.search", "SearchResult"),
    "Hit": ("paperatlas.search", "Hit"),
    "HIT_WHY_WORDS": ("paperatlas.search.results", "WHY_WORDS"),
    "Comparison": ("paperatlas.compare", "Comparison"),
    "ShareRow": ("paperatlas.compare", "ShareRow"),
    "Recommendations": ("paperatlas.recommend", "Recommendations"),
    "Pick": ("paperatlas.recommend", "Pick"),
    "Follow": ("paperatlas.report.follows", "Follow"),
    "FollowedPaper": ("paperatlas.report.follows", "FollowedPaper"),
    "KINDS": ("paperatlas.enrich.kinds", "KINDS"),
    "MAP_OVERVIEW": ("paperatlas.atlas.sample", "OVERVIEW"),
    "EXPORT_FORMATS": ("paperatlas.report.export", "FORMATS"),
    "DIGEST_FORMATS": ("paperatlas.report.digest", "FORMATS"),
    "DIGEST_LANGUAGES": ("paperatlas.report.strings", "LANGUAGES"),
}


def __getattr__(name: str) -> Any:
    try:
        module, attribute = _FROM_STAGES[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    return getattr(importlib.import_module(module), attribute)


class RecordView(Mapping[str, Any]):
    """A dataclass read as a read-only mapping of its fields (for callers of the old dicts)."""

    def _keys(self) -> tuple[str, ...]:
        return tuple(f.name for f in fields(self))  # type: ignore[arg-type]  # every subclass is a dataclass

    def __getitem__(self, key: str) -> Any:
        if key not in self._keys():
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())


@dataclass(frozen=True, eq=False)
class ListStats(RecordView):
    """Counts for one list or the whole atlas."""

    papers: int
    with_title: int
    by_area: dict[str, int]
    by_decision: dict[str, int]


@dataclass(frozen=True, eq=False)
class PaperDetail(Mapping[str, Any]):
    """One stored paper: every stored field, its lists, its facts and (when asked) the
    topic it is in on the map and on the field. Reads as the mapping `paper()` used to
    return: the stored fields, then `lists`, `facts`, `topic`, `reference_topic`."""

    record: dict[str, Any]  # the stored fields (id, title, abstract, authors, urls, extra, ...)
    lists: list[str]
    facts: dict[str, Any]
    topics: dict[str, Any] | None = None  # {"topic": ..., "reference_topic": ...}; None: not asked

    @property
    def id(self) -> str:
        return str(self.record["id"])

    @property
    def title(self) -> str | None:
        title = self.record.get("title")
        return str(title) if title is not None else None

    @property
    def abstract(self) -> str:
        return str(self.record.get("abstract") or "")

    @cached_property  # made once: a page template reads many keys
    def _as_dict(self) -> dict[str, Any]:
        return {**self.record, "lists": self.lists, "facts": self.facts, **(self.topics or {})}

    def __getitem__(self, key: str) -> Any:
        return self._as_dict[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._as_dict)

    def __len__(self) -> int:
        return len(self._as_dict)


@dataclass(frozen=True)
class Inspection:
    """How a file reads without storing it: its report and its first papers as stored.
    Unpacks as `(report, papers)`."""

    report: FileReport
    papers: list[dict[str, Any]]

    def __iter__(self) -> Iterator[Any]:
        return iter((self.report, self.papers))


@dataclass(frozen=True, eq=False)
class EnrichReport(RecordView):
    """Facts extracted: `enriched` of `total` papers (the rest unchanged, `skipped`)."""

    total: int
    enriched: int
    skipped: int
    named: int
    with_code: int
    with_area: int = 0
    area_problem: str | None = None  # why areas were not predicted, if they were not


@dataclass(frozen=True, eq=False)
class EmbedReport(RecordView):
    """Vectors computed for `model`: `embedded` of `total` papers (the rest current)."""

    model: str
    embedded: int
    skipped: int
    total: int
    workers: int | None = None  # Ray actors used (None: computed here)


@dataclass(frozen=True, eq=False)
class VocabularyReport(RecordView):
    """The atlas's English terms embedded for Chinese queries."""

    terms: int
    embedded: int


@dataclass(frozen=True, eq=False)
class Map(RecordView):
    """A topic map as stored: `meta` (counts, grouping, reference), topics of both levels
    (dicts: level, topic_id, parent_id, label, size, x, y, data) and one assignment per
    paper (paper_id, x, y, broad, fine, outlier). `built`: computed by this call (False:
    the stored map was current and reused)."""

    scope: str
    model: str
    signature: str
    meta: dict[str, Any]
    created_at: str
    topics: list[dict[str, Any]]
    assignments: list[dict[str, Any]]
    built: bool = False

    @property
    def broad_topics(self) -> list[dict[str, Any]]:
        """The broad topics, largest first."""
        return sorted((t for t in self.topics if t["level"] == 0), key=lambda t: -t["size"])


@dataclass(frozen=True)
class Collection:
    """A collection of marked papers."""

    name: str
    liked: int
    disliked: int


@dataclass(frozen=True)
class Kept:
    """What a person keeps about one paper: its triage state (read | skipped | saved, or
    None), its Markdown note ('' for none) and its tags."""

    state: str | None = None
    note: str = ""
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class PersonalImport:
    """What `Atlas.import_personal` wrote: rows per kind, the marks left out because
    this atlas does not hold their papers, the follows new to it and the lists whose
    "last seen" moved later."""

    marks: int
    states: int
    notes: int
    tags: int
    marks_missing: int
    follows: int = 0
    list_seen: int = 0


@dataclass(frozen=True)
class ReferenceInfo:
    """A reference: the big list other lists are placed on."""

    name: str
    title: str
    papers: int
    broad_topics: int
    fine_topics: int
    model: str
    in_use: bool


@dataclass(frozen=True)
class ModelInfo:
    """An embedding back end."""

    name: str
    description: str
    default: bool  # the model a map uses when none is named
    search: bool = False  # computed by `embed_for_search` (`paperatlas embed`): search fuses it


@dataclass(frozen=True, eq=False)
class AreaModelReport(RecordView):
    """A research-area classifier trained and saved."""

    papers: int
    areas: int
    path: str
    temperature: float | None = None


@dataclass(frozen=True)
class FactRow:
    """One line of a paper's facts as a reader wants it: ("kind", "benchmark (also: dataset)")."""

    label: str
    value: str


@dataclass(frozen=True)
class ModelProgress:
    """How many of the atlas's papers have a current-or-older vector of a search model."""

    model: str
    vectors: int
    papers: int

    @property
    def done(self) -> bool:
        return self.vectors >= self.papers


@dataclass(frozen=True)
class SearchStatus:
    """Which signals search fuses are there now: each search model's vectors (`models`,
    in the order `embed` computes them) and whether the English terms Chinese queries
    are matched against are built (`vocabulary`). `complete`: search is at full quality."""

    papers: int
    models: tuple[ModelProgress, ...]
    vocabulary: bool

    @property
    def complete(self) -> bool:
        return self.vocabulary and all(m.done for m in self.models)

    @property
    def pending(self) -> list[str]:
        """The models still being computed, then "vocabulary" if it is not built."""
        return [m.model for m in self.models if not m.done] + ([] if self.vocabulary else ["vocabulary"])


@dataclass(frozen=True)
class QuickStart:
    """What `Atlas.quick_start` did: the files added, the facts and the fast model's
    vectors (each a report of only what was missing). `enriched` is None when the facts
    were left for later (more papers lacked them than `facts_now`: `facts_pending` of them)."""

    added: AddReport
    enriched: EnrichReport | None
    embedded: EmbedReport
    facts_pending: int = 0


__all__ = [
    "DIGEST_FORMATS",
    "DIGEST_LANGUAGES",
    "EXPORT_FORMATS",
    "HIT_WHY_WORDS",
    "KINDS",
    "MAP_OVERVIEW",
    "AddReport",
    "AreaModelReport",
    "Collection",
    "Comparison",
    "EmbedReport",
    "EnrichReport",
    "FactRow",
    "FileReport",
    "Hit",
    "Inspection",
    "Kept",
    "ListStats",
    "Map",
    "ModelInfo",
    "ModelProgress",
    "PaperDetail",
    "PersonalImport",
    "Pick",
    "QuickStart",
    "Recommendations",
    "ReferenceInfo",
    "SearchResult",
    "SearchStatus",
    "ShareRow",
    "VocabularyReport",
]
