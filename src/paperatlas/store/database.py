"""`Store`: the one class callers use, the database as a whole with one part per domain,
each reached by name.

`Store` itself (StoreBase, connection.py) is what belongs to the whole file: opening,
read-only mode, connections, transactions, migrations, change counters, the clock. Each
part (`store.papers`, `store.lists`, `store.dedup`, `store.fts`, `store.facts`,
`store.vectors`, `store.maps`, `store.marks`, `store.kept`, `store.llm`, `store.follows`;
one module each) holds the SQL of its own tables and runs it on the store's connection.
"""

from __future__ import annotations

import os

from paperatlas.store.connection import StoreBase
from paperatlas.store.dedup import DedupRows
from paperatlas.store.facts import FactRows
from paperatlas.store.follows import FollowRows
from paperatlas.store.fts import FullText
from paperatlas.store.kept import KeptRows
from paperatlas.store.lists import ListRows
from paperatlas.store.llm import LlmRows
from paperatlas.store.maps import MapRows
from paperatlas.store.marks import MarkRows
from paperatlas.store.papers import _JSON_COLUMNS, PaperRows, _column_value
from paperatlas.store.vectors import VectorRows

JSON_COLUMNS = _JSON_COLUMNS  # the papers columns stored as JSON text
column_value = _column_value  # a papers column's value as stored (JSON text for lists and dicts)


class Store(StoreBase):
    """A paperatlas SQLite database in WAL mode (readers keep answering while an import
    writes). Safe to share between threads (one connection each); every multi-row write
    goes through `transaction()`, so an interrupted import leaves the atlas as it was.
    See StoreBase for how a path is opened (read_only, create), and `change_counter()`
    for what caches of derived data key on."""

    def __init__(
        self, path: str | os.PathLike[str] | None = None, read_only: bool | None = None, create: bool = True
    ) -> None:
        self.papers = PaperRows(self)
        self.lists = ListRows(self)
        self.dedup = DedupRows(self)
        self.fts = FullText(self)
        self.facts = FactRows(self)
        self.vectors = VectorRows(self)
        self.maps = MapRows(self)
        self.marks = MarkRows(self)
        self.kept = KeptRows(self)
        self.llm = LlmRows(self)
        self.follows = FollowRows(self)
        super().__init__(path, read_only, create)
