"""Shared by the embedding/area benchmarks: the ICLR 2026 rows and the fixed held-out split."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data" / "iclr2026.jsonl.gz"
sys.path.insert(0, str(REPO / "src"))

from paperatlas.embed import embedding_text  # noqa: E402
from paperatlas.enrich.areas import is_held_out  # noqa: E402

MIN_ABSTRACT = 100  # shorter abstracts are placeholders ("na", ".")


def load_rows(path: str | Path | None = None) -> list[dict]:
    """Every row of the data file, in file order."""
    with gzip.open(path or DEFAULT_DATA, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def texts_of(rows: list[dict]) -> list[str]:
    return [embedding_text(r.get("title"), r.get("abstract")) for r in rows]


def real_abstract(row: dict) -> bool:
    return len((row.get("abstract") or "").strip()) >= MIN_ABSTRACT


__all__ = ["DEFAULT_DATA", "is_held_out", "load_rows", "real_abstract", "texts_of"]
