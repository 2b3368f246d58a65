"""Opening input files: gzip transparently, binary/empty/missing/directory refused with a
one-line error, and lines decoded as UTF-8 one at a time so a bad byte names its line."""

from __future__ import annotations

import gzip
import os
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from paperatlas.errors import InputError

GZIP_MAGIC = b"\x1f\x8b"
# Magic numbers of other containers we cannot read (zip, xz, bzip2, zstd, PDF, 7z).
_OTHER_MAGIC = {b"PK\x03\x04": "a zip archive", b"\xfd7zXZ": "an xz archive",
                b"BZh": "a bzip2 archive", b"\x28\xb5\x2f\xfd": "a zstd archive",
                b"%PDF": "a PDF", b"7z\xbc\xaf": "a 7z archive"}
PEEK_BYTES = 64 * 1024


def check_path(path: Path) -> None:
    if not path.exists():
        raise InputError(path, "no such file")
    if path.is_dir():
        raise InputError(path, "is a directory, not a paper list (name the files inside it)")


# Files being read, by path: lets a progress bar ask how far a reader has got.
_open_files: dict[Path, BinaryIO] = {}


@contextmanager
def open_binary(path: Path) -> Iterator[BinaryIO]:
    """The file's bytes, gunzipped when it is gzip (detected by its magic number)."""
    check_path(path)
    with open(path, "rb") as raw:
        magic = raw.read(2)
        raw.seek(0)
        _open_files[path] = raw
        try:
            if magic == GZIP_MAGIC:
                with gzip.open(raw) as fh:
                    yield fh
            else:
                yield raw
        finally:
            _open_files.pop(path, None)


def fraction_read(path: Path) -> float | None:
    """How much of the file (on disk, so compressed bytes for gzip) has been read, 0..1."""
    raw = _open_files.get(path)
    if raw is None or raw.closed:
        return None
    try:
        size = os.fstat(raw.fileno()).st_size
        return min(raw.tell() / size, 1.0) if size else None
    except (OSError, ValueError):
        return None


def peek(path: Path, size: int = PEEK_BYTES) -> str:
    """The first `size` bytes as text (for format detection), after refusing binary and
    empty input. A multi-byte character cut at the end is ignored; a bad byte is not."""
    try:
        with open_binary(path) as fh:
            head = fh.read(size)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(path, f"cannot read: {exc}") from None
    for magic, what in _OTHER_MAGIC.items():
        if head.startswith(magic):
            raise InputError(path, f"is {what}, not a paper list")
    if b"\x00" in head:
        raise InputError(path, "is a binary file, not a paper list")
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    if not head.strip():
        raise InputError(path, "is empty: no papers in it")
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 4:
            line = head.count(b"\n", 0, exc.start) + 1
            raise InputError(path, "is not valid UTF-8 text (save it as UTF-8)", line) from None
        text = head[:exc.start].decode("utf-8")
    return text


def iter_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, line without its line ending), BOM dropped, CRLF/CR handled.

    Decoding line by line keeps memory flat for huge files and lets an invalid UTF-8
    byte be reported with its line number.
    """
    lineno = 0
    try:
        with open_binary(path) as fh:
            for raw in fh:
                lineno += 1
                if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
                    raw = raw[3:]
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise InputError(path, "is not valid UTF-8 text (save it as UTF-8)",
                                     lineno) from None
                line = line.rstrip("\n").rstrip("\r")
                if "\r" in line:  # old Mac line endings inside one "line"
                    for part in line.split("\r"):
                        yield lineno, part
                    continue
                yield lineno, line
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(path, f"cannot read: {exc}", lineno or None) from None
