"""A folder of lists or of per-paper files (a Jekyll/PMLR `_posts/` folder, an export of
notes): every file under it, recursively, in name order, each read with its own reader.

Hidden files and folders (`.git`) are passed over; so are files whose suffix no reader
takes (images, style sheets, scripts), counted as skipped. A file that cannot be read is
skipped and counted with its reason (the other files still count): a folder with one
broken file in it is still a folder of papers.

A folder never leads out of itself: a link (to a file or a folder) whose target lies outside
it is skipped and counted, never opened (`notes.md -> ~/.aws/credentials`); links to folders
are not followed at all (their files inside the folder are read where they are). Named pipes,
devices and sockets are skipped and counted without being opened (a pipe would wait forever).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from paperatlas.errors import InputError
from paperatlas.paper import Paper, skipped
from paperatlas.sources.table import LIST_SUFFIXES

_MAX_FILES = 200_000


OUTSIDE = "link leading outside the folder (not read)"
NOT_A_FILE = "not a regular file: a pipe, device or socket (not read)"


def list_files(folder: Path) -> list[Path]:
    """Every file under `folder`, hidden ones aside, in name order; links to folders are not
    followed. Links to files come too: `outside` tells those that lead out."""
    files: list[Path] = []
    for root, dirs, names in os.walk(folder, followlinks=False):
        linked = sorted(d for d in dirs if not d.startswith(".") and os.path.islink(os.path.join(root, d)))
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in linked)
        for name in sorted([*names, *linked]):
            if not name.startswith("."):
                files.append(Path(root) / name)
        if len(files) > _MAX_FILES:
            raise InputError(folder, f"has more than {_MAX_FILES} files: name a smaller folder")
    return files


def outside(path: Path, folder: Path) -> bool:
    """Does `path` (under `folder`) resolve, through links, to a place outside `folder`?"""
    real_folder = os.path.realpath(folder)
    return os.path.commonpath([real_folder, os.path.realpath(path)]) != real_folder


def _why_not_read(path: Path, folder: Path) -> str | None:
    """The skip reason of a folder entry that must not be opened, else None."""
    if path.is_symlink() and outside(path, folder):
        return OUTSIDE
    try:
        mode = os.stat(path).st_mode  # (never opens it)
    except OSError:
        return None  # a dangling link: reading it says "no such file"
    if stat.S_ISDIR(mode):
        return None if not path.is_symlink() else "link to a folder inside the folder (not followed)"
    return None if stat.S_ISREG(mode) else NOT_A_FILE


def read_folder(folder: Path, read_file: Callable[[Path], Iterator[Paper]]) -> Iterator[Paper]:
    files = list_files(folder)
    if not files:
        raise InputError(folder, "is an empty folder: no paper lists in it")
    for path in files:
        if reason := _why_not_read(path, folder):
            yield skipped(f"{path}:1", reason)
            continue
        suffixes = {s.lower() for s in path.suffixes}
        if not suffixes & LIST_SUFFIXES:
            yield skipped(f"{path}:1", "not a paper list (file type not read)")
            continue
        try:
            yield from read_file(path)
        except InputError as exc:
            reason = str(exc).split(": ", 1)[-1] if str(exc).startswith(str(path)) else str(exc)
            yield skipped(f"{path}:{exc.line or 1}", f"file not read: {reason}")
