"""What a reader skipped and why: `ReadReport`, filled by `sources.read(path, report)`.

Readers yield `paper.skipped(source, reason)` records for what they read but is not a paper
to store (a blog post in a bibliography, a keynote in a program, a record whose abstract is a
dict); `sources.read` takes those out of the stream and counts them here by reason, with the
first few line numbers, so the import report can say what was left out.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from paperatlas.sources._io import line_of

if TYPE_CHECKING:
    from paperatlas.sources.selfcheck import Judgement

_EXAMPLES = 5
__all__ = ["ReadReport", "line_of"]


@dataclass
class ReadReport:
    format: str | None = None
    read: int = 0  # papers yielded
    skipped: Counter = field(default_factory=Counter)  # reason -> count
    # reason -> first line numbers ("file:line" for a folder)
    examples: dict[str, list[int | str]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)  # signs the file read badly
    pattern: str | None = None  # the record pattern a list written by people was read by
    judgement: Judgement | None = None  # the reading judged against the file (`sources.selfcheck`)

    def skip(self, reason: str, line: int | str | None = None) -> None:
        self.skipped[reason] += 1
        lines = self.examples.setdefault(reason, [])
        if line is not None and len(lines) < _EXAMPLES:
            lines.append(line)

    @property
    def skipped_total(self) -> int:
        return sum(self.skipped.values())

    def summary(self) -> str:
        """`12 skipped: 8 not a paper (@misc), 4 abstract is a number (lines 3, 9, ...)`."""
        if not self.skipped:
            return ""
        parts = []
        for reason, count in self.skipped.most_common():
            lines = self.examples.get(reason) or []
            word = (
                "" if isinstance(lines[0] if lines else 0, str) else f"line{'s' if len(lines) > 1 else ''} "
            )
            where = (
                f" ({word}{', '.join(map(str, lines))}{', ...' if count > len(lines) else ''})"
                if lines
                else ""
            )
            parts.append(f"{count} {reason}{where}")
        return f"{self.skipped_total} skipped: " + "; ".join(parts)
