"""Paper rows: written, read, filtered, counted and re-keyed.

The `papers` table keeps lists and dicts (authors, keywords, urls, ...) as JSON text;
reads give them back decoded. `Filters` (paperatlas/filters.py) become SQL here, those
that join facts (kind, has_code, predicted area) and a person's tags and triage state too:
`store.papers.iter` is the one filtered listing every stage uses.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from paperatlas.filters import ALL_PAPERS, LIKES, Filters
from paperatlas.paper import finite, normalise_text
from paperatlas.store import lists, sortkeys
from paperatlas.store.connection import StorePart
from paperatlas.store.kept import move_kept

# Columns of `papers` that hold JSON lists/dicts.
_JSON_COLUMNS = ("authors", "keywords", "urls", "extra", "identifiers", "code_urls")
_JSON_EMPTY = {"extra": "{}", "identifiers": "{}"}  # the others default to '[]'
PAPER_COLUMNS = (
    "id",
    "title",
    "abstract",
    "authors",
    "keywords",
    "venue",
    "year",
    "area",
    "decision",
    "rating",
    "urls",
    "source",
    "extra",
    "identifiers",
    "code_urls",
    "section",
    "date",  # migration 4
)
_INSERT_VALUES = (
    f"INSERT INTO papers ({', '.join(PAPER_COLUMNS)}) VALUES ({', '.join('?' * len(PAPER_COLUMNS))})"
)
_IS_JSON = tuple(c in _JSON_COLUMNS for c in PAPER_COLUMNS)
# json.dumps(v, ensure_ascii=False) builds an encoder per call; one encoder, the same text
_encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode


def _to_json(value: Any) -> str:
    """A column's JSON; a number JSON cannot hold (an `extra` field of 1e999) stored as null."""
    try:
        return _encode(value)
    except ValueError:
        return _encode(finite(value))


_EMPTIES = tuple(_JSON_EMPTY.get(c, "[]") for c in PAPER_COLUMNS)


def _column_value(column: str, value: Any) -> Any:
    """A papers column as stored: JSON for lists/dicts (None -> empty), others as given."""
    if column not in _JSON_COLUMNS:
        return value
    if not value:  # None, [] or {}
        return _JSON_EMPTY.get(column, "[]")
    return _to_json(value)


_raw_decode = json.JSONDecoder().raw_decode


def _json_value(text: str) -> Any:
    """json.loads of a stored column, without its whitespace scans where the text is bare
    JSON as json.dumps writes it (every row read back pays this, ~1/3 faster)."""
    try:
        value, end = _raw_decode(text)
    except ValueError:
        return json.loads(text)  # leading whitespace, or the error json.loads gives
    return value if end == len(text) else json.loads(text)


# PaperRows.iter(sort=...): the orders the web's paper list offers, sorted by SQLite (a page
# of a 1M-paper list without a Python row per paper). Unrated papers (rating 0 or none)
# last; papers without a name last.
PAPER_SORTS = {
    "title": "py_lower(coalesce(nullif(p.title, ''), nullif(f.display_title, ''), ''))",
    "rating": "-coalesce(nullif(p.rating, 0), -1)",
    "name": "coalesce(f.name, '') = '', py_lower(coalesce(f.name, ''))",
}


def row_to_paper(row: sqlite3.Row) -> dict[str, Any]:
    """A papers row (plus any joined columns) as a dict, JSON columns decoded."""
    d = dict(row)
    for col in _JSON_COLUMNS:
        if col in d:
            value = d[col]
            if value == "[]":
                d[col] = []
            elif value == "{}":
                d[col] = {}
            elif isinstance(value, str):
                d[col] = _json_value(value)
    return d


class _PapersQuery(NamedTuple):
    columns: str
    joins: str  # after "FROM papers p"
    where: str  # "" or " WHERE ..."
    params: list[Any]
    order: str  # the list order


class PaperRows(StorePart):
    """The `papers` table."""

    def insert(self, record: dict[str, Any]) -> None:
        """Insert one paper row (keys from PAPER_COLUMNS; lists/dicts stored as JSON)."""
        cols = [c for c in PAPER_COLUMNS if c in record]
        values = [_column_value(c, record[c]) for c in cols]
        self.conn.execute(
            f"INSERT INTO papers ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})", values
        )

    def insert_many(self, records: list[dict[str, Any]]) -> None:
        """Insert many paper rows (every key of PAPER_COLUMNS present) in one statement."""
        if not records:
            return
        self.conn.executemany(
            _INSERT_VALUES,
            [
                [
                    (_to_json(v) if v else empty) if is_json else v
                    for is_json, empty, v in zip(_IS_JSON, _EMPTIES, map(r.get, PAPER_COLUMNS))
                ]
                for r in records
            ],
        )

    def insert_values(self, rows: Iterable[Sequence[Any]]) -> None:
        """Insert papers given as their stored values, PAPER_COLUMNS in order (JSON columns
        as `column_value` encodes them): for a bulk import that encoded them ahead
        (ingest/prepare.py). The rows written are those insert_many writes."""
        self.conn.executemany(_INSERT_VALUES, rows)

    def update(self, paper_id: str, changes: dict[str, Any]) -> None:
        """Set the given PAPER_COLUMNS of one paper (others in `changes` are ignored)."""
        if not changes:
            return
        cols = [c for c in changes if c in PAPER_COLUMNS and c != "id"]
        values = [_column_value(c, changes[c]) for c in cols]
        sets = ", ".join(f"{c} = ?" for c in cols)
        self.conn.execute(
            f"UPDATE papers SET {sets}, updated_at = datetime('now') WHERE id = ?", [*values, paper_id]
        )

    def rekey(self, old_id: str, new_id: str) -> None:
        """Give a paper a new id (a hash id replaced by the source id of a twin), moving
        every row that refers to it. Finds referring tables from the schema, so tables
        added by later migrations move too; what a person kept about it (no foreign key:
        store/kept.py) is merged into the new id's. Call inside a transaction."""
        conn = self.conn
        cols = ", ".join(c for c in PAPER_COLUMNS if c != "id")
        conn.execute(
            f"INSERT INTO papers (id, {cols}, added_at, updated_at) "
            f"SELECT ?, {cols}, added_at, datetime('now') FROM papers WHERE id = ?",
            (new_id, old_id),
        )
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                "AND name NOT LIKE '%fts%'"
            )
        ]
        for table in tables:
            for fk in conn.execute(f"PRAGMA foreign_key_list({table})").fetchall():
                if fk["table"] == "papers" and fk["to"] in ("id", None):
                    conn.execute(
                        f"UPDATE OR REPLACE {table} SET {fk['from']} = ? WHERE {fk['from']} = ?",
                        (new_id, old_id),
                    )
        move_kept(conn, old_id, new_id)
        conn.execute("DELETE FROM papers WHERE id = ?", (old_id,))

    def get(self, paper_id: str) -> dict[str, Any] | None:
        """One paper's columns (JSON decoded), None if there is no such id."""
        row = self.conn.execute("SELECT * FROM papers WHERE id = ?", (paper_id,)).fetchone()
        return row_to_paper(row) if row else None

    def get_many(self, ids: Iterable[str]) -> list[dict[str, Any]]:
        """Papers by id, in the order asked (missing ids are left out)."""
        ids = list(ids)
        found: dict[str, dict[str, Any]] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            rows = self.conn.execute(
                f"SELECT * FROM papers WHERE id IN ({', '.join('?' * len(chunk))})", chunk
            )
            for row in rows:
                found[row["id"]] = row_to_paper(row)
        return [found[i] for i in ids if i in found]

    def resolve_id(self, prefix: str) -> str | None:
        """A full paper id from an exact id or a unique prefix (as users type them)."""
        row = self.conn.execute("SELECT id FROM papers WHERE id = ?", (prefix,)).fetchone()
        if row:
            return str(row[0])
        rows = self.conn.execute(
            "SELECT id FROM papers WHERE id >= ? AND id < ? LIMIT 2", (prefix, prefix + "\U0010ffff")
        ).fetchall()
        return str(rows[0][0]) if len(rows) == 1 else None

    def existing_ids(self, ids: Iterable[str]) -> set[str]:
        """Which of `ids` are stored papers."""
        return {
            r[0]
            for r in self._in_query("SELECT id FROM papers WHERE id IN (SELECT value FROM json_each(?))", ids)
        }

    def iter(
        self,
        filters: Filters = ALL_PAPERS,
        text: str | None = None,
        ids: Iterable[str] | None = None,
        limit: int | None = None,
        offset: int = 0,
        id_only: bool = False,
        section: str | None = None,
        sort: str | None = None,
        map_rows: Iterable[int] | None = None,
    ) -> Iterator[dict[str, Any]]:
        """Papers passing `filters` (paperatlas/filters.py) and every other filter given,
        in list order (or insertion order).

        `text` is a plain substring of title or abstract, `section` of the heading a list
        put the paper under (both case-insensitive); keyword search with ranking is
        search's job. Each row has the paper's columns plus
        `kind`, `name`, `has_code`, `display_title` and `predicted_area` from facts
        (only `id` with id_only=True: cheap filtering for search). `sort` (a key of
        PAPER_SORTS) orders them by title, rating or name first, list order breaking ties:
        by the stored keys of `paper_sort` (store/sortkeys.py), whose indexes give a page
        without sorting the store, or by the expressions of PAPER_SORTS where the keys are
        missing or not all current (the same order).

        `map_rows`: only the papers of these `paper_topics` rows (one topic of a map, as
        the web's map holds them). Alone (with a list, a sort by the stored keys), a page
        is chosen from the members' small keys (their papers' rowid, list position, sort
        key; no paper row read) and only the page's rows are read: a broad topic of a
        1M-paper map holds ~25,000 papers. With other filters they act as `ids` do.
        """
        if map_rows is not None:
            map_rows = list(map_rows)
            fast = not id_only and self._member_page_ok(filters, text, ids, section, sort)
            if fast and limit is not None:
                yield from self._member_page(map_rows, filters.list_name, sort, limit, offset)
                return
            ids = self._map_row_ids(map_rows, ids)
        list_name = filters.list_name
        q = self._papers_query(filters, text, ids, section, id_only)
        paging = " LIMIT ? OFFSET ?" if limit is not None else ""
        page = [limit, offset] if limit is not None else []
        if (
            list_name is not None
            and ids is None
            and sort in lists.LIST_ORDERS
            and lists.has_list_keys(self.conn)
        ):
            # a list's order, or rating then list order: from the list's index (migration 11)
            sql, params = lists.list_page_sql(q.columns, q.where, sort, paging), [*q.params, *page]
        elif sort is not None and self._sort_keys_current():
            sql, params = self._keyed_query(q, sort, list_name, ids, paging, page)
        else:
            order = q.order
            if sort is not None:
                # Python's str.lower, not SQLite's ASCII-only lower(): "École" sorts as "école"
                self.conn.create_function("py_lower", 1, str.lower, deterministic=True)
                order = f"{PAPER_SORTS[sort]}, {order}"
            sql = f"SELECT {q.columns} FROM papers p {q.joins}{q.where} ORDER BY {order}{paging}"
            params = [*q.params, *page]
        for row in self.conn.execute(sql, params):
            yield {"id": row[0]} if id_only else row_to_paper(row)

    def _member_page_ok(
        self,
        filters: Filters,
        text: str | None,
        ids: Iterable[str] | None,
        section: str | None,
        sort: str | None,
    ) -> bool:
        """Whether a page of a topic's members can be chosen from their keys alone: no
        filter but the list, and no sort or one by current stored keys."""
        if filters.but(list_name=None).narrows() or ids is not None or text or section:
            return False
        return sort is None or self._sort_keys_current()

    def _member_sql(self, list_name: str | None, sort: str | None) -> tuple[str, str]:
        """(FROM clause, ORDER BY) of a topic's members: `paper_topics` rows by rowid
        (from `json_each(?)`), their papers' rowids from the id index (no paper row read),
        the list's positions and the stored sort keys; the order `iter` gives."""
        joins = "json_each(?) j CROSS JOIN paper_topics t ON t.rowid = j.value CROSS JOIN papers p ON p.id = t.paper_id"
        order = "p.rowid"
        if list_name is not None:
            joins += " CROSS JOIN list_members m ON m.list_name = ? AND m.paper_id = p.id"
            order = "m.position, p.rowid"
        if sort is not None:
            joins += " CROSS JOIN paper_sort s ON s.rowid = p.rowid"
            order = f"s.{sortkeys.SORT_COLUMNS[sort]}, {order}"
        return joins, order

    def _member_page(
        self, map_rows: list[int], list_name: str | None, sort: str | None, limit: int, offset: int
    ) -> Iterator[dict[str, Any]]:
        """One page of a topic's papers (see `iter`'s `map_rows`): the page's rowids
        chosen among the members' keys, then only those papers read."""
        joins, order = self._member_sql(list_name, sort)
        keys = [f"{c} AS k{i}" for i, c in enumerate(order.split(", "))]
        inner = f"SELECT p.rowid AS r, {', '.join(keys)} FROM {joins} ORDER BY {order} LIMIT ? OFFSET ?"
        columns = self._papers_query(ALL_PAPERS, None, None, None, False).columns
        outer_order = ", ".join(f"pg.k{i}" for i in range(len(keys)))
        sql = (
            f"SELECT {columns} FROM ({inner}) pg CROSS JOIN papers p ON p.rowid = pg.r "
            f"LEFT JOIN facts f ON f.paper_id = p.id ORDER BY {outer_order}"
        )
        params: list[Any] = [
            json.dumps(map_rows),
            *([list_name] if list_name is not None else []),
            limit,
            offset,
        ]
        for row in self.conn.execute(sql, params):
            yield row_to_paper(row)

    def _map_row_ids(self, map_rows: list[int], ids: Iterable[str] | None) -> list[str]:
        """The paper ids of `paper_topics` rows (those among `ids` too, when given)."""
        found = [
            r[0]
            for r in self.conn.execute(
                "SELECT t.paper_id FROM json_each(?) j CROSS JOIN paper_topics t ON t.rowid = j.value",
                (json.dumps(map_rows),),
            )
        ]
        if ids is None:
            return found
        keep = set(ids)
        return [i for i in found if i in keep]

    def _sort_keys_current(self) -> bool:
        """Whether `paper_sort` holds every paper's current keys (a writable store fills
        the blank ones first: a write that bypassed `transaction()`)."""
        conn = self.conn
        if not self._has_table("paper_sort"):
            return False  # an older store opened read-only
        if not sortkeys.any_stale(conn):
            return True
        if self._store.read_only:
            return False
        with self._store.transaction():  # fills them before it commits
            pass
        return not sortkeys.any_stale(conn)

    def _keyed_query(
        self,
        q: _PapersQuery,
        sort: str,
        list_name: str | None,
        ids: Iterable[str] | None,
        paging: str,
        page: list[Any],
    ) -> tuple[str, list[Any]]:
        """`iter`'s sorted SELECT by the stored keys. With no filter, a page is read
        from the key's index alone (OFFSET skips index entries, not papers) and only its
        rows are joined; with filters, the index is walked in order and each paper tested
        (it stops once the page is full), unless the filter is a set of ids or a list much
        smaller than the store: then its papers are read and sorted (the planner's way)."""
        key = f"s.{sortkeys.SORT_COLUMNS[sort]}"
        order = q.order.replace("p.rowid", "s.rowid")
        if not q.where and list_name is None and paging:
            inner = f"SELECT rowid AS r, {key[2:]} AS k FROM paper_sort s ORDER BY {key}, s.rowid{paging}"
            sql = (
                f"SELECT {q.columns} FROM ({inner}) pg CROSS JOIN papers p ON p.rowid = pg.r "
                f"{q.joins} ORDER BY pg.k, pg.r"
            )
            return sql, [*page, *q.params]
        walk = ids is None and (list_name is None or self._list_is_most_of_store(list_name))
        join = "CROSS JOIN" if walk else "JOIN"
        sql = (
            f"SELECT {q.columns} FROM paper_sort s {join} papers p ON p.rowid = s.rowid "
            f"{q.joins}{q.where} ORDER BY {key}, {order}{paging}"
        )
        return sql, [*q.params, *page]

    def _list_is_most_of_store(self, list_name: str) -> bool:
        """A list of at least a quarter of the store's papers (max rowid: no count of the
        store): walking the sort index finds its pages sooner than sorting its papers."""
        members = self.conn.execute(
            "SELECT count(*) FROM list_members WHERE list_name = ?", (list_name,)
        ).fetchone()[0]
        top = self.conn.execute("SELECT coalesce(max(rowid), 0) FROM papers").fetchone()[0]
        return bool(members * 4 >= top)

    def count_matching(
        self,
        filters: Filters = ALL_PAPERS,
        text: str | None = None,
        ids: Iterable[str] | None = None,
        section: str | None = None,
        map_rows: Iterable[int] | None = None,
    ) -> int:
        """How many papers `iter` gives for these filters, counted by SQLite (a
        topic's members alone: by their keys, no paper row read)."""
        if map_rows is not None:
            map_rows = list(map_rows)
            if self._member_page_ok(filters, text, ids, section, None):
                list_name = filters.list_name
                joins, _ = self._member_sql(list_name, None)
                params: list[Any] = [json.dumps(map_rows), *([list_name] if list_name is not None else [])]
                return int(self.conn.execute(f"SELECT count(*) FROM {joins}", params).fetchone()[0])
            ids = self._map_row_ids(map_rows, ids)
        q = self._papers_query(filters, text, ids, section, True)
        sql = f"SELECT {q.columns} FROM papers p {q.joins}{q.where}"
        return int(self.conn.execute(f"SELECT count(*) FROM ({sql})", q.params).fetchone()[0])

    def _papers_query(
        self,
        filters: Filters,
        text: str | None,
        ids: Iterable[str] | None,
        section: str | None,
        id_only: bool,
    ) -> _PapersQuery:
        """`iter`'s SELECT in parts: columns, the joins after `papers p`, the WHERE
        clause, their parameters (joins' first), and the list order."""
        where: list[str] = []
        params: list[Any] = []
        joins: list[str] = []
        order = "p.rowid"
        if filters.list_name is not None:
            joins.append("JOIN list_members m ON m.paper_id = p.id AND m.list_name = ?")
            params.append(filters.list_name)
            order = "m.position, p.rowid"
        if filters.area is not None:
            where.append("(p.area = ? OR (p.area IS NULL AND f.predicted_area = ?))")
            params += [filters.area, filters.area]
        if filters.decision is not None:
            where.append("p.decision LIKE ?")
            params.append(filters.decision + "%")
        if text:
            where.append("(instr(lower(coalesce(p.title, '')), ?) > 0 OR instr(lower(p.abstract), ?) > 0)")
            params += [text.lower(), text.lower()]
        if filters.kind is not None:
            where.append("f.kind = ?")
            params.append(filters.kind)
        if section:  # the heading a list put the paper under: a case-insensitive substring
            where.append("instr(lower(coalesce(p.section, '')), ?) > 0")
            params.append(section.lower())
        if filters.has_code is not None:
            where.append("coalesce(f.has_code, 0) = ?")
            params.append(1 if filters.has_code else 0)
        for clause, values in self._personal_filters(filters):
            where.append(clause)
            params += values
        if ids is not None:
            where.append("p.id IN (SELECT value FROM json_each(?))")
            params.append(json.dumps(list(ids)))
        columns = (
            "p.id AS id"
            if id_only
            else "p.*, f.kind AS kind, f.name AS name, coalesce(f.has_code, 0) AS has_code, "
            "f.display_title AS display_title, f.predicted_area AS predicted_area"
        )
        joins.append("LEFT JOIN facts f ON f.paper_id = p.id")
        return _PapersQuery(
            columns, " ".join(joins), " WHERE " + " AND ".join(where) if where else "", params, order
        )

    def _personal_filters(self, filters: Filters) -> list[tuple[str, list[Any]]]:
        """The WHERE clauses of the tag and state filters (what a person set: the tables of
        migration 14, the likes of `marks`). A read-only atlas older than those tables has
        no tag and no state: a tag or a set state matches nothing, `unread` every paper."""
        clauses: list[tuple[str, list[Any]]] = []
        personal = self._has_personal_tables() if filters.tag or filters.state else False
        if filters.tag is not None:
            if not personal:
                return [("0", [])]
            clauses.append(("p.id IN (SELECT paper_id FROM paper_tags WHERE tag = ?)", [filters.tag]))
        state = filters.state
        if state == "liked":
            clauses.append(
                ("p.id IN (SELECT paper_id FROM marks WHERE collection = ? AND value > 0)", [LIKES])
            )
        elif state == "unread":
            if personal:
                clauses.append(
                    (
                        "NOT EXISTS (SELECT 1 FROM paper_state ps WHERE ps.paper_id = p.id "
                        "AND ps.state IN ('read', 'skipped'))",
                        [],
                    )
                )
        elif state is not None:
            if not personal:
                return [("0", [])]
            clauses.append(("p.id IN (SELECT paper_id FROM paper_state WHERE state = ?)", [state]))
        return clauses

    def _has_personal_tables(self) -> bool:
        """Whether this atlas has the triage and tag tables (migration 14)."""
        return self._has_table("paper_state") and self._has_table("paper_tags")

    def title_rows(self, ids: Iterable[str]) -> list[dict[str, Any]]:
        """What `shown_title` and a paper's name need of the papers `ids`, and no other
        column: id, title, display_title, name, and the abstract only where there is
        neither title (a map of 15k papers read whole rows, JSON columns decoded, for these)."""
        return [
            dict(row)
            for row in self._in_query(
                "SELECT p.id AS id, p.title AS title, f.display_title AS display_title, f.name AS name, "
                "CASE WHEN coalesce(p.title, '') = '' AND coalesce(f.display_title, '') = '' "
                "THEN p.abstract END AS abstract "
                "FROM papers p LEFT JOIN facts f ON f.paper_id = p.id "
                "WHERE p.id IN (SELECT value FROM json_each(?))",
                ids,
            )
        ]

    def titles(self, after: int = 0) -> Iterator[tuple[str, str]]:
        """(id, title) of every paper with a title, in the order they were added; `after`:
        only the papers after that rowid."""
        yield from self.conn.execute(
            "SELECT id, title FROM papers WHERE coalesce(title, '') != '' AND rowid > ? ORDER BY rowid",
            (after,),
        )

    def has_title_index(self) -> bool:
        """Whether `titled` can answer (schema 17 on; not a read-only older store)."""
        return self._has_table("paper_titles")

    def titled(self, title: str) -> list[str]:
        """Ids of the papers whose title is `title` (case, punctuation and spacing aside),
        in the order they were added: an index probe on `paper_titles`, each hit checked
        against the paper's title itself, and the papers whose keys are not filled yet
        (written with `fill_keys=False`) checked directly."""
        norm = normalise_text(title)
        if not norm:
            return []
        rows = self.conn.execute(
            "SELECT p.rowid, p.id, p.title FROM paper_titles t JOIN papers p ON p.rowid = t.rowid "
            "WHERE t.title_hash = ? "
            "UNION SELECT p.rowid, p.id, p.title FROM paper_sort s JOIN papers p ON p.rowid = s.rowid "
            "WHERE s.title_key IS NULL ORDER BY 1",
            (sortkeys.title_hash(title),),
        )
        return [pid for _, pid, shown in rows if shown and normalise_text(shown) == norm]

    def count(self, list_name: str | None = None) -> int:
        """Papers in the store, or in one list."""
        if list_name is None:
            row = self.conn.execute("SELECT count(*) FROM papers").fetchone()
        else:
            row = self.conn.execute(
                "SELECT count(*) FROM list_members WHERE list_name = ?", (list_name,)
            ).fetchone()
        return int(row[0])

    def ids(self, list_name: str | None = None) -> list[str]:
        """Every paper id, in insertion order (or one list's, in list order)."""
        if list_name is None:
            return [r[0] for r in self.conn.execute("SELECT id FROM papers ORDER BY rowid")]
        return [
            r[0]
            for r in self.conn.execute(
                "SELECT paper_id FROM list_members WHERE list_name = ? ORDER BY position", (list_name,)
            )
        ]

    def sections(self, list_name: str | None = None) -> list[str]:
        """The section headings a list (None: any list) put its papers under, in list order."""
        sql = "SELECT p.section FROM papers p JOIN list_members m ON m.paper_id = p.id"
        sql += " WHERE p.section IS NOT NULL AND p.section != ''"
        params = [] if list_name is None else [list_name]
        sql += "" if list_name is None else " AND m.list_name = ?"
        rows = self.conn.execute(sql + " ORDER BY m.list_name, m.position", params)
        return list(dict.fromkeys(r[0] for r in rows))

    def signature(self) -> tuple[int, int, str]:
        """(count, max rowid, newest updated_at) of the papers: changes when papers are
        added, removed or edited (keys derived data kept beside the atlas, e.g. TF-IDF)."""
        row = self.conn.execute(
            "SELECT count(*), coalesce(max(rowid), 0), coalesce(max(updated_at), '') FROM papers"
        ).fetchone()
        return (int(row[0]), int(row[1]), str(row[2]))
