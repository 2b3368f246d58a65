"""What a search tells its user beside the hits ("this atlas has no minilm-int8 vectors, …").

A `Note` is its English text, so the terminal, JSON output and library callers read it as
the plain string it always was; it also carries a key and the values in it, from which an
interface in another language words the same note (web/i18n.py `search_note`)."""

from __future__ import annotations


class Note(str):
    """A note's English text, with `key` (what the note says) and `values` (the names and
    numbers in it, as text: a model, a query, a language code)."""

    key: str
    values: dict[str, str]

    def __new__(cls, text: str, key: str = "", **values: str) -> Note:
        note = super().__new__(cls, text)
        note.key = key
        note.values = values
        return note
