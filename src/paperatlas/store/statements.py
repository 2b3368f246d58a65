"""A migration script cut into the statements `sqlite3` runs one at a time."""

from __future__ import annotations

import sqlite3


def split_sql(script: str) -> list[str]:
    """Split a migration into statements, keeping trigger bodies (BEGIN ... END;) whole."""
    statements: list[str] = []
    current: list[str] = []
    for line in script.splitlines():
        if not line.strip() or line.strip().startswith("--"):
            continue
        current.append(line)
        text = "\n".join(current).strip()
        if sqlite3.complete_statement(text):
            statements.append(text)
            current = []
    if current and "\n".join(current).strip():
        statements.append("\n".join(current).strip())
    return statements
