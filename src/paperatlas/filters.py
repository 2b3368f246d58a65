"""`Filters`: which papers a listing, search, recommendation or export may show.

One frozen value, parsed once from the CLI's options (cli/common.py) and once from a
page's query string (web/filtering.py), passed through `Atlas` to the stage, and turned
into SQL in one place (store/papers.py). Every field left None lets every paper through.

- `list_name`: papers of this list.
- `area`: the list's own area, or the predicted one where the list gives none (exact).
- `kind`: the kind of contribution the facts name (one of KINDS).
- `decision`: decisions starting with this ("Accept" takes Oral and Poster).
- `has_code`: True only papers linking their code, False only those that do not.
- `tag`: papers carrying this tag; typed text is read as tags are stored (`tag_key`: NFKC,
  lower case, a leading '#' dropped, spaces as '-'), so "#To Cite" finds "to-cite".
- `state`: one of STATES:
  `read`, `skipped`, `saved` — the triage state a person set;
  `liked` — liked (not disliked) in the 'likes' collection;
  `unread` — neither read nor skipped (untouched and saved papers: what is still to read).
  An atlas older than the triage tables has no state: nothing is read, skipped or saved,
  so `unread` is every paper.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from paperatlas.errors import PaperatlasError

KINDS = ("method", "benchmark", "dataset", "analysis", "theory")
TRIAGE_STATES = ("read", "skipped", "saved")  # what paper_state holds
STATES = (*TRIAGE_STATES, "liked", "unread")
LIKES = "likes"  # the collection `state=liked` reads
FIELDS = ("list_name", "area", "kind", "decision", "has_code", "tag", "state")


class FilterError(PaperatlasError):
    """A filter value no paper can have (an unknown kind or state, a malformed flag)."""


@dataclass(frozen=True)
class Filters:
    list_name: str | None = None
    area: str | None = None
    kind: str | None = None
    decision: str | None = None
    has_code: bool | None = None
    tag: str | None = None
    state: str | None = None

    def __post_init__(self) -> None:
        if self.kind is not None and self.kind not in KINDS:
            raise FilterError(f"unknown kind {self.kind!r} (one of {', '.join(KINDS)})")
        if self.state is not None and self.state not in STATES:
            raise FilterError(f"unknown state {self.state!r} (one of {', '.join(STATES)})")
        if self.has_code is not None and not isinstance(self.has_code, bool):
            raise FilterError(f"has_code must be true or false, not {self.has_code!r}")
        for name in ("list_name", "area", "kind", "decision", "tag", "state"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise FilterError(f"{name} must be text, not {value!r}")

    @classmethod
    def parse(
        cls,
        list_name: str | None = None,
        area: str | None = None,
        kind: str | None = None,
        decision: str | None = None,
        has_code: str | bool | None = None,
        tag: str | None = None,
        state: str | None = None,
    ) -> Filters:
        """Filters from text as people type it (an option, a query string): surrounding
        space dropped, an empty value is no filter, `has_code` 1 or 0 (or a bool).
        FilterError for a value no paper can have."""
        return cls(
            list_name=_text(list_name),
            area=_text(area),
            kind=_text(kind),
            decision=_text(decision),
            has_code=_flag(has_code),
            tag=tag_key(tag),
            state=_text(state),
        )

    def given(self) -> dict[str, Any]:
        """The fields set, by name (a page's query string, a cache key)."""
        return {name: getattr(self, name) for name in FIELDS if getattr(self, name) is not None}

    def narrows(self) -> bool:
        """Whether any filter is set (False: every paper passes)."""
        return bool(self.given())

    def but(self, **changes: Any) -> Filters:
        """These filters with some fields changed (None: that filter dropped)."""
        return dataclasses.replace(self, **changes)


ALL_PAPERS = Filters()


def tag_key(text: str | None) -> str | None:
    """A tag as typed, written the way tags are stored (None: no tag)."""
    if text is None:
        return None
    key = unicodedata.normalize("NFKC", str(text)).strip().lstrip("#").strip().lower()
    return re.sub(r"\s+", "-", key) or None


def _text(value: str | None) -> str | None:
    if value is None:
        return None
    value = str(value).strip()
    return value or None


def _flag(value: str | bool | None) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    word = str(value).strip()
    if not word:
        return None
    if word in ("1", "0"):
        return word == "1"
    raise FilterError(f"has_code must be 1 or 0 (got {value!r})")
