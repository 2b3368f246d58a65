"""A person's own notes and tags as a search signal: the papers whose note or tags hold
the query's words.

Read at search time, not indexed: one person keeps notes on tens to a few thousand
papers, so a scan of them per query costs less than keeping an FTS5 table in step with
every note and tag written (and an atlas opened read-only before migration 14 has
neither table: the store reads it as "nothing kept")."""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from paperatlas.search.query import CJK_RUN

# a paper counts as matched when its note and tags hold at least this share of the
# query's words (so "diffusion video" finds a note saying "video diffusion baseline",
# and one stray shared word of a long query does not)
MIN_SHARE = 0.5
NOTE_EXCERPT = 120  # characters of the note shown on a hit
_WORD = re.compile(r"\w+")


@dataclass
class KeptMatch:
    """Why one paper matched: words found in its note, tags that hold a query word."""

    share: float
    in_note: bool
    tags: list[str] = field(default_factory=list)
    note_excerpt: str = ""


def query_words(query: str) -> list[str]:
    """The words a note is searched for: Latin-script words of two letters or more (or a
    number), and
    each Chinese (or other CJK) run as its character pairs (Chinese is written without
    spaces, so a pair is the smallest piece that still means something)."""
    words: list[str] = []
    for word in _WORD.findall(query.casefold()):
        for part in re.split(f"({CJK_RUN.pattern})", word):
            if not part:
                continue
            if CJK_RUN.fullmatch(part):
                words += [part] if len(part) == 1 else [part[i : i + 2] for i in range(len(part) - 1)]
            elif len(part) > 1 or part.isdigit():
                words.append(part)
    return list(dict.fromkeys(words))


def _matcher(word: str):
    """A test of whether casefolded text holds `word`: a Chinese pair anywhere, a number as
    a whole word ("3" is not in "13" nor "30"), another word at the start of one of its
    words ("model" finds "models")."""
    if CJK_RUN.match(word):
        return lambda text: word in text
    end = r"(?![^\W_])" if word.isdigit() else ""
    pattern = re.compile(r"(?<![^\W_])" + re.escape(word) + end)
    # the plain substring test first: it rules out almost every note at a fraction of the cost
    return lambda text: word in text and pattern.search(text) is not None


def _excerpt(note: str, word: str) -> str:
    """About NOTE_EXCERPT characters of the note around the first place `word` occurs."""
    flat = " ".join(note.split())
    at = flat.casefold().find(word)
    start = max(0, at - NOTE_EXCERPT // 3) if at >= 0 else 0
    piece = flat[start : start + NOTE_EXCERPT]
    return ("…" if start else "") + piece + ("…" if start + NOTE_EXCERPT < len(flat) else "")


def kept_matches(store, query: str, allowed: AbstractSet[str] | None = None) -> dict[str, KeptMatch]:
    """paper id -> KeptMatch for the papers (among `allowed`, all when None) whose note
    and tags hold at least MIN_SHARE of the query's words."""
    words = query_words(query)
    if not words:
        return {}
    notes = store.kept.notes()
    tags = store.kept.tags_of()
    if not notes and not tags:  # nothing kept, nothing to match: no pattern compiled per word
        return {}
    holds = {w: _matcher(w) for w in words}
    found: dict[str, KeptMatch] = {}
    for pid in set(notes) | set(tags):
        if allowed is not None and pid not in allowed:
            continue
        note = notes.get(pid, "").casefold()
        in_note = [w for w in words if holds[w](note)]
        tagged = [t for t in tags.get(pid, []) if any(holds[w](t) for w in words)]
        hit = {w for w in words if w in in_note or any(holds[w](t) for t in tagged)}
        share = len(hit) / len(words)
        if share >= MIN_SHARE:
            excerpt = _excerpt(notes[pid], in_note[0]) if in_note else ""
            found[pid] = KeptMatch(share, bool(in_note), tagged, excerpt)
    return found


def kept_ranking(matches: dict[str, KeptMatch]) -> list[tuple[str, float]]:
    """The matches as a ranked list scored by the square of their share (a note holding
    every word well ahead of one holding half), best first, then by id."""
    return sorted(((pid, m.share**2) for pid, m in matches.items()), key=lambda h: (-h[1], h[0]))
