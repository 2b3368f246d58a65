"""A folder of lists or of per-paper files (a Jekyll/PMLR `_posts/` folder, an export of
notes): every file under it, recursively, in name order, each read with its own reader.

Hidden files and folders (`.git`) are passed over; so are files whose suffix no reader
takes (images, style sheets, scripts), counted as skipped. A file that cannot be read is
skipped and counted with its reason (the other files still count): a folder with one
broken file in it is still a folder of papers.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

from paperatlas.errors import InputError
from paperatlas.paper import Paper, skipped
from paperatlas.sources.table import LIST_SUFFIXES

_MAX_FILES = 200_000


def list_files(folder: Path) -> list[Path]:
    files: list[Path] = []
    for root, dirs, names in os.walk(folder, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if not name.startswith("."):
                files.append(Path(root) / name)
        if len(files) > _MAX_FILES:
            raise InputError(folder, f"has more than {_MAX_FILES} files: name a smaller folder")
    return files


def read_folder(folder: Path, read_file: Callable[[Path], Iterator[Paper]]) -> Iterator[Paper]:
    files = list_files(folder)
    if not files:
        raise InputError(folder, "is an empty folder: no paper lists in it")
    for path in files:
        suffixes = {s.lower() for s in path.suffixes}
        if not suffixes & LIST_SUFFIXES:
            yield skipped(f"{path}:1", "not a paper list (file type not read)")
            continue
        try:
            yield from read_file(path)
        except InputError as exc:
            reason = str(exc).split(": ", 1)[-1] if str(exc).startswith(str(path)) else str(exc)
            yield skipped(f"{path}:{exc.line or 1}", f"file not read: {reason}")
