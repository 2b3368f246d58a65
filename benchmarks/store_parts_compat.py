"""Child code that runs on another source tree (a same-run baseline) may meet a `Store` from
before its split into parts: `SHIM` gives such a Store the parts' names (`store.papers.count()`
calls its `count_papers()`), from the codemod's table of old names. A tree with parts (made
per store, so not on the class) is left as it is."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_CODEMOD = Path(__file__).resolve().parent.parent / "scripts" / "store_parts_codemod.py"


def _renames() -> dict[str, dict[str, str]]:
    spec = importlib.util.spec_from_file_location("store_parts_codemod", _CODEMOD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    by_part: dict[str, dict[str, str]] = {}
    for old, (part, new) in module.RENAMES.items():
        by_part.setdefault(part, {})[new] = old
    return by_part


SHIM = f"""
from paperatlas.store import Store as _Store
if hasattr(_Store, "get_vectors"):  # the methods still mixed in: a tree from before the split
    class _OldPart:
        def __init__(self, store, names):
            self._store, self._names = store, names
        def __getattr__(self, name):
            return getattr(self._store, self._names.get(name, name))
    for _part, _names in {_renames()!r}.items():
        if not hasattr(_Store, _part):  # `marks` was a method: children here do not use it
            setattr(_Store, _part, property(lambda s, n=_names: _OldPart(s, n)))
"""
