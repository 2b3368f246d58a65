"""Per-paper facts from enrich/ (name, kind, has code, display title, predicted area,
gist, ...): one JSON record per paper, with the fields filters need lifted into columns,
and the hash and extractor version that tell enrich what is still to do."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from paperatlas.paper import json_text
from paperatlas.store.connection import StorePart


class FactRows(StorePart):
    """The `facts` table."""

    def set(self, paper_id: str, facts: dict[str, Any], text_hash: str, version: str) -> None:
        """Store one paper's facts (set_many for one)."""
        self.set_many([(paper_id, facts, text_hash)], version)

    def set_many(self, rows: Iterable[tuple[str, dict[str, Any], str]], version: str) -> None:
        """Store the facts of many papers, (paper id, facts, text hash) each, in one statement
        (enrich writes hundreds of thousands). Columns used by filters are lifted out of the
        facts: name, kind, has_code, display_title, predicted_area (its top label)."""
        self.conn.executemany(
            "INSERT OR REPLACE INTO facts(paper_id, name, kind, has_code, display_title, "
            "predicted_area, data, text_hash, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    paper_id,
                    facts.get("name"),
                    facts.get("kind"),
                    int(bool(facts.get("has_code"))),
                    facts.get("display_title"),
                    _area_label(facts.get("predicted_area")),
                    json_text(facts, ensure_ascii=False),
                    text_hash,
                    version,
                )
                for paper_id, facts, text_hash in rows
            ],
        )

    def get(self, paper_id: str) -> dict[str, Any] | None:
        """One paper's facts record, None if it has none yet."""
        row = self.conn.execute("SELECT data FROM facts WHERE paper_id = ?", (paper_id,)).fetchone()
        return json.loads(row[0]) if row else None

    def get_many(self, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """paper id -> facts record, for the papers among `ids` that have one."""
        out: dict[str, dict[str, Any]] = {}
        for pid, data in self.conn.execute(
            "SELECT paper_id, data FROM facts WHERE paper_id IN (SELECT value FROM json_each(?))",
            (json.dumps(list(ids)),),
        ):
            out[pid] = json.loads(data)
        return out

    def for_cards(self, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The facts a paper's card shows (name, kind, has_code, display_title, gist),
        without decoding each paper's whole facts record."""
        return {
            pid: {"name": name, "kind": kind, "has_code": bool(code), "display_title": title, "gist": gist}
            for pid, name, kind, code, title, gist in self.conn.execute(
                "SELECT paper_id, name, kind, has_code, display_title, "
                "json_extract(data, '$.gist') FROM facts "
                "WHERE paper_id IN (SELECT value FROM json_each(?))",
                (json.dumps(list(ids)),),
            )
        }

    def paper_names(self, after: int = 0) -> Iterator[tuple[str, str]]:
        """(paper id, name) for every name a paper's facts say it introduces (the
        headline `name` and the rest of `names`): search finds a paper by its name. In
        the order the rows were written; `after`: only the rows after that rowid."""
        for pid, name, names in self.conn.execute(
            "SELECT paper_id, name, json_extract(data, '$.names') FROM facts "
            "WHERE name IS NOT NULL AND rowid > ? ORDER BY rowid",
            (after,),
        ):
            yield pid, name
            for other in json.loads(names) if names else []:
                if isinstance(other, str) and other != name:
                    yield pid, other

    def state(self) -> dict[str, tuple[str, str]]:
        """paper id -> (text_hash, version) of its stored facts, to skip unchanged work."""
        return {
            r[0]: (r[1], r[2]) for r in self.conn.execute("SELECT paper_id, text_hash, version FROM facts")
        }

    def inputs_page(
        self, after: int = 0, limit: int = 1000, pending: str | None = None
    ) -> list[tuple[int, str, str | None, str, str, str | None, str | None]]:
        """One page of the papers after rowid `after`, in rowid order, as (rowid, id, title,
        abstract, code_urls as stored JSON, text_hash and version of the stored facts or
        None): what enrich reads, a page at a time (see VectorRows.inputs_page). Given a
        `pending` version, only the papers `pending` counts for it: the papers with
        current facts are passed over inside SQLite, their text never read out."""
        where = "" if pending is None else " AND (f.paper_id IS NULL OR f.text_hash = '' OR f.version != ?)"
        return self.conn.execute(
            "SELECT p.rowid, p.id, p.title, p.abstract, p.code_urls, f.text_hash, f.version "
            "FROM papers p LEFT JOIN facts f ON f.paper_id = p.id "
            f"WHERE p.rowid > ?{where} ORDER BY p.rowid LIMIT ?",
            (after, *(() if pending is None else (pending,)), limit),
        ).fetchall()

    def pending(self, version: str | None = None) -> int:
        """How many papers still need their facts extracted: none stored (new papers, or
        a run interrupted before their batch), stale (the paper's title or abstract changed
        since: the papers_text_changed trigger), or, given a `version`, of another one.
        Counted as papers minus current facts: every facts row has its paper (the foreign
        key deletes it with the paper), and both counts read an index only (facts_current)."""
        papers = self.conn.execute("SELECT count(*) FROM papers").fetchone()[0]
        if version is None:
            current = self.conn.execute("SELECT count(*) FROM facts WHERE text_hash != ''").fetchone()[0]
        else:
            current = self.conn.execute(
                "SELECT count(*) FROM facts WHERE text_hash != '' AND version = ?", (version,)
            ).fetchone()[0]
        return int(papers - current)


def _area_label(predicted: Any) -> Any:
    """The predicted area's top label (the column filters read)."""
    return predicted.get("label") if isinstance(predicted, dict) else predicted
