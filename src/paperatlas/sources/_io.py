"""Opening input files: gzip transparently (and only up to a limit of what it expands to),
binary/empty/missing/directory refused with a one-line error, and lines decoded as UTF-8 one at
a time so a bad byte names its line; a line over the record limit is cut (`CutLine`).

Text that is not UTF-8 is read when its encoding is not in doubt: UTF-16/32 (by its BOM or
the zero bytes of ASCII text), or the one one-byte code page its bytes read as text in
(`sources.codepages`, decided from 64 KB from the first line that is not UTF-8); the
encoding used is kept by path (`decoded_as`) for the reading's note."""

from __future__ import annotations

import codecs
import gzip
import io
import os
import stat
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO, cast

from paperatlas.errors import InputError
from paperatlas.sources.codepages import CODE_PAGES, code_page
from paperatlas.sources.limits import GZIP_MIN_LIMIT, GZIP_RATIO, RECORD_LIMIT

GZIP_MAGIC = b"\x1f\x8b"
# Magic numbers of other containers we cannot read (zip, xz, bzip2, zstd, PDF, 7z).
_OTHER_MAGIC = {
    b"PK\x03\x04": "a zip archive",
    b"\xfd7zXZ": "an xz archive",
    b"BZh": "a bzip2 archive",
    b"\x28\xb5\x2f\xfd": "a zstd archive",
    b"%PDF": "a PDF",
    b"7z\xbc\xaf": "a 7z archive",
}
PEEK_BYTES = 64 * 1024


def check_path(path: Path) -> None:
    try:
        mode = os.stat(path).st_mode  # never opens: a FIFO without a writer does not hang
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise InputError(path, "is a directory, not a paper list (name the files inside it)")
    if stat.S_ISFIFO(mode):
        raise InputError(path, "is a named pipe (FIFO), not a file: save the list to a file")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode):
        raise InputError(path, "is a device or socket, not a file")


_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def wide_encoding(head: bytes) -> str | None:
    """UTF-16/32 (with a BOM, or without one, told by where the zero bytes of ASCII text
    fall), or None for a byte encoding (UTF-8)."""
    for bom, name in _BOMS:
        if head.startswith(bom):
            return name
    sample = head[:4096]
    sample = sample[: len(sample) - len(sample) % 4]
    if len(sample) < 8:
        return None
    n = len(sample)
    zeros = [sum(1 for i in range(k, n, 4) if sample[i] == 0) / (n // 4) for k in range(4)]
    if zeros[1] > 0.9 and zeros[2] > 0.9 and zeros[3] > 0.9 and zeros[0] < 0.5:
        return "utf-32-le"
    if zeros[0] > 0.9 and zeros[1] > 0.9 and zeros[2] > 0.9 and zeros[3] < 0.5:
        return "utf-32-be"
    odd = (zeros[1] + zeros[3]) / 2
    even = (zeros[0] + zeros[2]) / 2
    if odd > 0.6 and even < 0.2:
        return "utf-16-le"
    if even > 0.6 and odd < 0.2:
        return "utf-16-be"
    return None


# Files being read, by path: lets a progress bar ask how far a reader has got.
_open_files: dict[Path, BinaryIO] = {}
# Files read in an encoding other than UTF-8, by path: `sources.read` names it in a note.
_decoded_as: dict[Path, str] = {}
_NOT_UTF8 = "is not valid UTF-8 text, nor plainly in one code page (save it as UTF-8)"


def encoding_note(path: Path) -> str | None:
    """`not UTF-8: read as Mac Roman, ...` when the last reading of `path` took an encoding
    other than UTF-8; None for UTF-8."""
    encoding = _decoded_as.get(path)
    if encoding is None:
        return None
    if encoding in CODE_PAGES:
        return f"not UTF-8: read as {CODE_PAGES[encoding]}, the one code page its bytes read as text in"
    return f"not UTF-8: read as {encoding.upper()}"


class CutLine(str):
    """A line longer than the record limit: its first `RECORD_LIMIT` bytes as text; the rest
    was passed over, never held in memory."""


class _Unzipped(io.RawIOBase):
    """A gzip stream that stops with a one-line error once it has expanded past `limit` bytes:
    a small file that unzips to gigabytes is refused, never inflated whole."""

    def __init__(self, path: Path, compressed: BinaryIO, limit: int):
        self._path, self._gzip, self._limit, self._read = path, gzip.GzipFile(fileobj=compressed), limit, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = self._gzip.readinto(buffer)
        self._read += n
        if self._read > self._limit:
            raise InputError(self._path, _bomb_message(self._limit))
        return n

    def close(self) -> None:
        self._gzip.close()
        super().close()


def _bomb_message(limit: int) -> str:
    return (
        f"unzips to more than {limit / 1024 / 1024:,.0f} MiB, over {GZIP_RATIO} times its own size: "
        "not a paper list (unzip it yourself if it is one)"
    )


def _gzip_limit(path: Path, raw: BinaryIO) -> int:
    """How far a gzip file may expand; refused at once when its trailer (the size of its last
    member, modulo 4 GiB) already says it expands further."""
    size = os.fstat(raw.fileno()).st_size
    limit = max(GZIP_MIN_LIMIT, GZIP_RATIO * size)
    if size >= 18:
        raw.seek(-4, os.SEEK_END)
        if int.from_bytes(raw.read(4), "little") > limit:
            raise InputError(path, _bomb_message(limit))
        raw.seek(0)
    return limit


class _AsOpened(io.RawIOBase):
    """A file's first `size` bytes, its size when it was opened: what is written to it while it
    is read is not read (a file growing as fast as it is read would never end, and one read
    twice must read the same). A file cut shorter meanwhile just ends sooner."""

    def __init__(self, raw: BinaryIO, size: int):
        self._raw, self._left = raw, size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._left <= 0:
            return 0
        n = self._raw.readinto(memoryview(buffer)[: self._left])  # type: ignore[attr-defined]
        self._left -= n
        return n


@contextmanager
def open_binary(path: Path) -> Iterator[BinaryIO]:
    """The file's bytes as they were when it was opened, gunzipped when it is gzip (detected by
    its magic number)."""
    check_path(path)
    with open(path, "rb") as raw:
        magic = raw.read(2)
        raw.seek(0)
        _open_files[path] = raw
        try:
            if magic == GZIP_MAGIC:
                limit = _gzip_limit(path, raw)
                compressed = io.BufferedReader(_AsOpened(raw, os.fstat(raw.fileno()).st_size))
                unzipped = _Unzipped(path, cast(BinaryIO, compressed), limit)
                with io.BufferedReader(unzipped, buffer_size=1 << 16) as fh:
                    yield cast(BinaryIO, fh)
            else:
                size = os.fstat(raw.fileno()).st_size
                with io.BufferedReader(_AsOpened(raw, size), buffer_size=1 << 16) as fh:
                    yield cast(BinaryIO, fh)
        finally:
            _open_files.pop(path, None)


def is_gzip(path: Path) -> bool:
    with open(path, "rb") as raw:
        return raw.read(2) == GZIP_MAGIC


def text_size(path: Path) -> int:
    """About how many bytes of text the file holds: a gzip file's size unzipped as its trailer
    gives it (modulo 4 GiB, and a hostile file may lie: an estimate, never a limit), else its
    size on disk."""
    with open(path, "rb") as raw:
        size = os.fstat(raw.fileno()).st_size
        if size < 18 or raw.read(2) != GZIP_MAGIC:
            return size
        raw.seek(-4, os.SEEK_END)
        return max(size, int.from_bytes(raw.read(4), "little"))


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
    empty input. A multi-byte character cut at the end is ignored; a bad byte is not, unless
    the file is plainly in one code page (`sources.codepages`)."""
    try:
        with open_binary(path) as fh:
            head = fh.read(size)
            if not (text := _head_text(path, head)):
                page, line = _page_at(head, fh)
                if not page:
                    raise InputError(path, _NOT_UTF8, line)
                text = head.decode(page)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(path, f"cannot read: {exc}") from None
    return text


def _head_text(path: Path, head: bytes) -> str | None:
    """The head decoded (UTF-8 or UTF-16/32), None when it is neither; binary/empty refused."""
    for magic, what in _OTHER_MAGIC.items():
        if head.startswith(magic):
            raise InputError(path, f"is {what}, not a paper list")
    if encoding := wide_encoding(head):
        text = head.decode(encoding, errors="ignore").lstrip("\ufeff")
        if not text.strip():
            raise InputError(path, "is empty: no papers in it")
        if "\x00" in text:
            raise InputError(path, "is a binary file, not a paper list")
        return text
    if b"\x00" in head:
        raise InputError(path, "is a binary file, not a paper list")
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    if not head.strip():
        raise InputError(path, "is empty: no papers in it")
    try:
        return head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 4:
            return None
        return head[: exc.start].decode("utf-8")


def _page_at(head: bytes, fh: BinaryIO) -> tuple[str | None, int]:
    """The code page of a head that is not UTF-8 (see `_page_ahead`), and the bad line."""
    bad = len(head)
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = exc.start
    start = head.rfind(b"\n", 0, bad) + 1
    line = head.count(b"\n", 0, bad) + 1
    if not head[:start].isascii():
        return None, line  # UTF-8 text with a bad byte later: not one code page
    sample = head[start:] + fh.read(max(0, PEEK_BYTES - (len(head) - start)))
    return code_page(sample[:PEEK_BYTES]), line


def _wide_lines(path: Path, fh: BinaryIO, encoding: str, max_line: int | None) -> Iterator[tuple[int, str]]:
    """Lines of a UTF-16/32 file (BOM dropped), numbered; a bad code unit names its line."""
    text = io.TextIOWrapper(fh, encoding=encoding, errors="strict", newline=None)
    lineno = 0
    limit = -1 if max_line is None else max_line + 1
    try:
        while line := text.readline(limit):
            lineno += 1
            if lineno == 1:
                line = line.lstrip("\ufeff")
            if max_line is not None and len(line) > max_line and not line.endswith("\n"):
                while (rest := text.readline(limit)) and not rest.endswith("\n"):
                    pass  # the rest of the line, passed over
                yield lineno, CutLine(line[:max_line])
                continue
            yield lineno, line.rstrip("\n")
    except UnicodeDecodeError:
        raise InputError(path, f"is not valid {encoding.upper()} text", lineno + 1) from None
    finally:
        text.detach()


def iter_lines(path: Path, max_line: int | None = RECORD_LIMIT) -> Iterator[tuple[int, str]]:
    """(line number, line without its line ending), BOM dropped, CRLF/CR handled.

    Decoding line by line keeps memory flat for huge files and lets an invalid UTF-8
    byte be reported with its line number. A line over `max_line` bytes comes as a `CutLine`
    (None: lines of any length, for a JSON document that may be one line). A file whose
    lines are ASCII up to one that is not UTF-8 is read on in the code page the next 64 KB
    plainly are in (`sources.codepages`), if any.
    """
    lineno = 0
    limit = -1 if max_line is None else max_line + 1
    _decoded_as.pop(path, None)
    try:
        with open_binary(path) as fh:
            encoding = wide_encoding(fh.peek(4096)[:4096] if hasattr(fh, "peek") else b"")
            if encoding:
                _decoded_as[path] = encoding
                yield from _wide_lines(path, fh, encoding, max_line)
                return
            page: str | None = None  # a one-byte code page, once a line is not UTF-8
            ahead: list[bytes] = []  # lines read to decide the code page, not yet yielded
            ascii_so_far = True
            while raw := ahead.pop(0) if ahead else fh.readline(limit):
                lineno += 1
                if max_line is not None and len(raw) > max_line and not raw.endswith(b"\n"):
                    while (rest := fh.readline(limit)) and not rest.endswith(b"\n"):
                        pass  # the rest of the line, passed over
                    yield lineno, CutLine(raw[:max_line].decode(page or "utf-8", "ignore"))
                    continue
                if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
                    raw = raw[3:]
                try:
                    line = raw.decode(page or "utf-8")
                except UnicodeDecodeError:
                    if page or not ascii_so_far or not (page := _page_ahead(fh, raw, ahead, limit)):
                        raise InputError(path, _NOT_UTF8, lineno) from None
                    _decoded_as[path] = page
                    line = raw.decode(page)
                ascii_so_far = ascii_so_far and raw.isascii()
                line = line.rstrip("\n").rstrip("\r")
                if "\r" in line:  # old Mac line endings inside one "line"
                    for part in line.split("\r"):
                        yield lineno, part
                    continue
                yield lineno, line
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(path, f"cannot read: {exc}", lineno or None) from None


def _page_ahead(fh: BinaryIO, raw: bytes, ahead: list[bytes], limit: int) -> str | None:
    """The code page of the first line that is not UTF-8 and the lines after it, up to 64 KB
    (read into `ahead`, to be yielded next)."""
    size = len(raw)
    while size < PEEK_BYTES and (more := fh.readline(limit)):
        ahead.append(more)
        size += len(more)
    return code_page(b"".join([raw, *ahead])[:PEEK_BYTES])


def line_of(source: str | None) -> int | None:
    """The line number in a `path:line` source, or None."""
    if not source:
        return None
    tail = source.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else None
