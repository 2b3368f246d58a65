"""The ids a filter allows (search/filters.py) are one set for every thread of a process,
kept while the counts of what a filter reads are unchanged (the facts' and migration 20's),
and read again after any change to them, whoever committed it."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from paperatlas import Atlas
from paperatlas.filters import Filters
from paperatlas.search import filters as F
from paperatlas.store import PAPER_COLUMNS, Store
from paperatlas.store.generation import filtered_changes


def _row(pid: str, decision: str | None = None) -> dict:
    row = dict.fromkeys(PAPER_COLUMNS)
    row.update(
        id=pid, title=f"Paper {pid}", abstract="An abstract.", authors=[], keywords=[], urls=[], extra={}
    )
    row["decision"] = decision
    return row


@pytest.fixture
def served(tmp_path):
    """The server's atlas (asked from many threads) and another connection that writes
    (`paperatlas add`, a like from another process)."""
    path = tmp_path / "f.db"
    writer = Atlas(path)
    with writer.store.transaction():
        writer.store.papers.insert_many([_row("p1", "Accept (Oral)"), _row("p2", "Reject"), _row("p3")])
        writer.store.lists.ensure("L")
        writer.store.lists.add_members([("L", "p1", 0), ("L", "p2", 1)])
    writer.tag(["p1"], ["to-cite"])
    server = Atlas(path)
    F._ALLOWED.clear()
    yield server.store, writer
    F._ALLOWED.clear()
    server.close()
    writer.close()


def _in_threads(store: Store, filters: Filters, n: int = 3) -> list[frozenset[str] | None]:
    out: list[frozenset[str] | None] = []
    for _ in range(n):  # one after the other: each thread has its own connection and counter
        t = threading.Thread(target=lambda: out.append(F.allowed_ids(store, filters)))
        t.start()
        t.join()
    return out


def test_every_thread_shares_one_set_of_ids(served):
    store, _ = served
    for filters in (Filters(tag="to-cite"), Filters(decision="Accept"), Filters(list_name="L")):
        sets = _in_threads(store, filters)
        assert sets[0] == frozenset(p["id"] for p in store.papers.iter(filters, id_only=True))
        assert all(s is sets[0] for s in sets)  # not one copy per thread


CHANGES: dict[str, tuple[Filters, Callable[[Atlas], object], frozenset[str]]] = {
    "tag": (Filters(tag="to-cite"), lambda a: a.tag(["p2"], ["to-cite"]), frozenset({"p1", "p2"})),
    "untag": (Filters(tag="to-cite"), lambda a: a.untag(["p1"], ["to-cite"]), frozenset()),
    "like": (Filters(state="liked"), lambda a: a.like(["p3"]), frozenset({"p3"})),
    "state": (Filters(state="unread"), lambda a: a.set_state(["p2"], "read"), frozenset({"p1", "p3"})),
    "member": (
        Filters(list_name="L"),
        lambda a: a.store.lists.add_member("L", "p3", 2) and a.store.conn.commit(),
        frozenset({"p1", "p2", "p3"}),
    ),
    "paper": (
        Filters(decision="Accept"),
        lambda a: a.store.papers.insert_many([_row("p4", "Accept (Poster)")]) or a.store.conn.commit(),
        frozenset({"p1", "p4"}),
    ),
    "decision": (
        Filters(decision="Accept"),
        lambda a: (
            a.store.conn.execute("UPDATE papers SET decision = 'Reject' WHERE id = 'p1'")
            and a.store.conn.commit()
        ),
        frozenset(),
    ),
    "facts": (
        Filters(kind="method"),
        lambda a: a.store.facts.set("p2", {"kind": "method"}, "h", "v1") or a.store.conn.commit(),
        frozenset({"p2"}),
    ),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_change_by_another_connection_is_seen_by_every_thread(served, change):
    store, writer = served
    filters, write, expected = CHANGES[change]
    before = _in_threads(store, filters)[0]
    assert before != expected
    write(writer)
    assert _in_threads(store, filters) == [expected] * 3


def test_a_store_without_the_counts_reads_the_ids_again(served):
    store, writer = served
    with writer.store.transaction():  # as an atlas older than migration 20, opened read-only
        writer.store.conn.execute("DELETE FROM change_counts WHERE name = 'filtered'")
    assert filtered_changes(store) is None
    filters = Filters(tag="to-cite")
    assert _in_threads(store, filters, 1) == [frozenset({"p1"})]
    writer.tag(["p3"], ["to-cite"])
    assert _in_threads(store, filters, 2) == [frozenset({"p1", "p3"})] * 2


def test_a_like_or_state_written_again_as_it_was_keeps_the_set(served):
    store, writer = served
    writer.like(["p3"])
    writer.set_state(["p2"], "read")
    sets = [_in_threads(store, f, 1)[0] for f in (Filters(state="liked"), Filters(state="unread"))]
    writer.like(["p3"])  # the like button pressed again, the state set again: nothing a filter reads
    writer.set_state(["p2"], "read")
    writer.store.conn.execute("UPDATE papers SET title = 'Retitled' WHERE id = 'p1'")
    writer.store.conn.commit()
    again = [_in_threads(store, f, 1)[0] for f in (Filters(state="liked"), Filters(state="unread"))]
    assert again == sets == [frozenset({"p3"}), frozenset({"p1", "p3"})]
    assert all(a is b for a, b in zip(again, sets, strict=True))
