"""`Store`: the one class callers use, composed of one part per domain.

Each part (papers.py, lists.py, dedup.py, fts.py, facts.py, vectors.py, maps.py,
marks.py) holds the SQL of its own tables on top of `StoreBase` (connection.py:
opening, read-only mode, transactions, migrations, change counters).
"""

from __future__ import annotations

from paperatlas.store.dedup import DedupRows
from paperatlas.store.facts import FactRows
from paperatlas.store.fts import FullText
from paperatlas.store.lists import ListRows
from paperatlas.store.maps import MapRows
from paperatlas.store.marks import MarkRows
from paperatlas.store.papers import PaperRows
from paperatlas.store.vectors import VectorRows


class Store(PaperRows, ListRows, DedupRows, FullText, FactRows, VectorRows, MapRows, MarkRows):
    """A paperatlas SQLite database in WAL mode (readers keep answering while an import
    writes). Safe to share between threads (one connection each); every multi-row write
    goes through `transaction()`, so an interrupted import leaves the atlas as it was.
    See StoreBase for how a path is opened (read_only, create), and `change_counter()`
    for what caches of derived data key on."""
