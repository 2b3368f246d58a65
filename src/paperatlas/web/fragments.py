"""Rendered pieces of pages that many pages share, kept between pages: the filter form (the
same for every search with the same filters) and the download links.

A piece is a macro of `_macros.html` whose HTML follows from the page's language and the
macro's own arguments alone: it is kept under (language, macro name, the arguments' values),
so a change of what a macro is given (the list's areas after an add, another filter) is a
new key, never a stale piece. Written with Jinja each time, the filter form alone took a
fifth of a search page's rendering (its options each glossed and shortened)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping
from typing import Any

from jinja2.runtime import Macro
from markupsafe import Markup

PIECES = 512  # pieces kept per app (a few KB each)


def frozen(value: Any) -> Hashable:
    """`value` as a key: dicts and lists (a page's filters, a select's choices) as tuples."""
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), frozen(v)) for k, v in value.items()))
    if isinstance(value, list | tuple | set | frozenset):
        items = (frozen(v) for v in value)
        return tuple(sorted(items, key=repr)) if isinstance(value, set | frozenset) else tuple(items)
    return value if isinstance(value, Hashable) else repr(value)


class Fragments:
    """`piece(lang, macro, *args, **kwargs)`: the macro's HTML, kept (least recently used
    first out) while `PIECES` others are newer. Only for macros that read nothing of the
    page but its language (`t`, `gloss`, `link`) and their arguments."""

    def __init__(self, size: int = PIECES) -> None:
        self.size = size
        self._kept: OrderedDict[Hashable, Markup] = OrderedDict()
        self._lock = threading.Lock()

    def piece(self, lang: str, macro: Macro, *args: Any, **kwargs: Any) -> Markup:
        key = (lang, macro.name, frozen(args), frozen(kwargs))
        with self._lock:
            html = self._kept.get(key)
            if html is not None:
                self._kept.move_to_end(key)
                return html
        html = Markup(macro(*args, **kwargs))
        with self._lock:
            self._kept[key] = html
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return html

    def __len__(self) -> int:
        return len(self._kept)
