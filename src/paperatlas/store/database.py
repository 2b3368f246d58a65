"""`Store`: the one class callers use, composed of one part per domain.

Each part (papers.py, lists.py, dedup.py, fts.py, facts.py, vectors.py, maps.py,
marks.py, kept.py) holds the SQL of its own tables on top of `StoreBase` (connection.py:
opening, read-only mode, transactions, migrations, change counters).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from paperatlas.store.dedup import DedupRows
from paperatlas.store.facts import FactRows
from paperatlas.store.fts import FullText
from paperatlas.store.kept import KeptRows
from paperatlas.store.lists import ListRows
from paperatlas.store.llm import LlmRows
from paperatlas.store.maps import MapRows
from paperatlas.store.marks import MarkRows
from paperatlas.store.papers import _JSON_COLUMNS, PAPER_COLUMNS, PaperRows, _column_value
from paperatlas.store.vectors import VectorRows

JSON_COLUMNS = _JSON_COLUMNS  # the papers columns stored as JSON text
column_value = _column_value  # a papers column's value as stored (JSON text for lists and dicts)
_INSERT_VALUES = (
    f"INSERT INTO papers ({', '.join(PAPER_COLUMNS)}) VALUES ({', '.join('?' * len(PAPER_COLUMNS))})"
)


class Store(
    PaperRows, ListRows, DedupRows, FullText, FactRows, VectorRows, MapRows, MarkRows, KeptRows, LlmRows
):
    """A paperatlas SQLite database in WAL mode (readers keep answering while an import
    writes). Safe to share between threads (one connection each); every multi-row write
    goes through `transaction()`, so an interrupted import leaves the atlas as it was.
    See StoreBase for how a path is opened (read_only, create), and `change_counter()`
    for what caches of derived data key on."""

    def insert_paper_values(self, rows: Iterable[Sequence[Any]]) -> None:
        """Insert papers given as their stored values, PAPER_COLUMNS in order (JSON columns
        as `column_value` encodes them): for a bulk import that encoded them ahead
        (ingest/prepare.py). The rows written are those insert_papers writes."""
        self.conn.executemany(_INSERT_VALUES, rows)
