"""Whether a file is the one a list was last added from, so that adding it again (a rerun
of `open`) need not read it: 15,602 papers are 10 to 30 s of reading and matching, by the
machine's load, for an answer of "nothing new".

A file is unchanged when its size, modification time and SHA-256 of its bytes are those
recorded when it was last added to the list, it would be read the same way (this version
of paperatlas, the same `--records`), and the list has gained or lost no member since
(`Store.lists.members_state`): a paper removed from the list is put back by reading the
file again. Only plain files are fingerprinted; a folder is always read.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from paperatlas.printable import file_name

_CHUNK = 1 << 20


@cache
def _code_version() -> str:
    # an upgrade may read a file differently: its papers are read again. (importlib.metadata
    # and what it imports, ~10 ms, are loaded here: the reading child of `add` imports this
    # module with its package and never fingerprints a file.)
    from importlib import metadata

    try:
        return metadata.version("paperatlas")
    except metadata.PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True)
class Fingerprint:
    path: str  # absolute, as storable text (file_name): the same file named from another folder is the same file
    size: int
    mtime_ns: int
    sha256: str
    reading: str  # how the file is read: the code's version and the records pattern


def fingerprint(path: Path, records: str | None) -> Fingerprint | None:
    """The file as it is now; None for what is not a plain file (a folder, a pipe)."""
    try:
        if not path.is_file():
            return None
        before = path.stat()
        digest = hashlib.sha256()
        with path.open("rb") as handle:
            while chunk := handle.read(_CHUNK):
                digest.update(chunk)
    except OSError:
        return None  # the read that follows says what is wrong with the file
    return Fingerprint(
        file_name(path.resolve()),
        before.st_size,
        before.st_mtime_ns,
        digest.hexdigest(),
        f"{_code_version()}|{records or ''}",
    )


def is_unchanged(store, list_name: str, seen: Fingerprint) -> bool:
    """Whether the list was last added from this very file and is as that add left it."""
    last = store.lists.file(list_name, seen.path)
    return (
        last is not None
        and (last["size"], last["mtime_ns"], last["sha256"], last["reading"])
        == (seen.size, seen.mtime_ns, seen.sha256, seen.reading)
        and last["members"] == store.lists.members_state(list_name)
    )


def remember(store, list_name: str, seen: Fingerprint) -> None:
    """Record the file just added (inside its add's transaction: a rolled back add
    records nothing)."""
    store.lists.set_file(list_name, seen.path, seen.size, seen.mtime_ns, seen.sha256, seen.reading)
