"""The store: the only package that speaks SQL.

SQLite in WAL mode, schema versioned by numbered migrations (schema.py), FTS5 over
title/abstract/keywords (fts.py), and side tables for what later stages compute per
paper: facts (enrich/), vectors (embed/), maps and topics (atlas/) and user marks
(likes, collections) and what a person keeps (triage state, notes, tags). `Store` (database.py) is the one class callers use.
"""

from paperatlas.errors import StoreError
from paperatlas.store.connection import DEFAULT_DB, default_db_path
from paperatlas.store.database import Store
from paperatlas.store.generation import StoreGeneration
from paperatlas.store.papers import PAPER_COLUMNS
from paperatlas.store.schema import MIGRATIONS

__all__ = [
    "DEFAULT_DB",
    "MIGRATIONS",
    "PAPER_COLUMNS",
    "Store",
    "StoreError",
    "StoreGeneration",
    "default_db_path",
]
