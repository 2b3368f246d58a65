"""Untrusted text made safe to show or store: control characters out of what a terminal shows,
file names that are not UTF-8 spelled out, lone surrogates out of what SQLite stores.

Titles, abstracts, file names and skip reasons come from files the user did not write. A
terminal acts on some characters instead of showing them (ESC sequences set the window title,
clear the screen or make links; the 8-bit CSI 0x9B is ESC [ on some terminals; U+202E makes the
rest of a line read backwards), so `for_terminal` takes them out; `console` is a rich Console
that does it to everything it prints, and never reads rich markup in text.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

# ESC and what it starts: CSI (ESC [ ... final byte), OSC (ESC ] ... BEL or ESC \), the string
# controls DCS/SOS/PM/APC (ESC P/X/^/_ ... ESC \), else ESC and the one character after it;
# and the 8-bit CSI with its parameters.
_ESCAPE = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]?|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[PX^_][^\x1b]*(?:\x1b\\)?|[\s\S]?)"
    r"|\x9b[0-?]*[ -/]*[@-~]?"
)
# C0 but newline and tab, DEL, C1, and the bidi embeddings, overrides and isolates
_CONTROL = "".join(chr(c) for c in (*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0)))
_BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_UNSAFE = re.compile(f"[{re.escape(_CONTROL + _BIDI)}\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_DROP = dict.fromkeys(map(ord, _CONTROL + _BIDI))
_PRINTABLE_ASCII = bytes(range(0x20, 0x7F)) + b"\t\n"


def for_terminal(text: str) -> str:
    """`text` with every character a terminal would act on removed (escape sequences whole);
    newlines and tabs kept, since a multi-line layout needs them."""
    if not has_controls(text):
        return text
    return _spell_surrogates(_ESCAPE.sub("", text).translate(_DROP))


def has_controls(text: str) -> bool:
    """Does `text` hold a character `for_terminal` takes out? (ASCII text, most of what is
    read, is tested in C by deleting its printable bytes: a few times faster than the search.)"""
    if text.isascii():
        return bool(text.encode("ascii").translate(None, _PRINTABLE_ASCII))
    return _UNSAFE.search(text) is not None


def _spell_surrogates(text: str) -> str:
    """Lone surrogates, which cannot be written as UTF-8: a byte of a file name that is not
    UTF-8 (U+DC80-U+DCFF) as \\xNN, any other as U+FFFD."""
    return _SURROGATE.sub(
        lambda m: f"\\x{ord(m.group()) - 0xDC00:02x}" if m.group() >= "\udc80" else "\ufffd", text
    )


def json_for_terminal(text: str) -> str:
    """JSON text (as `json.dumps(..., ensure_ascii=False)` writes it) with the characters a
    terminal acts on written as \\u escapes: the same JSON value, inert on a terminal. json
    escapes C0 itself; DEL, C1, the bidi controls and lone surrogates it writes raw."""
    if not _UNSAFE.search(text):
        return text
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


# characters str.splitlines() breaks at, shown escaped so an echoed value keeps it one line
_LINE_BREAKS = {
    c: repr(chr(c))[1:-1] for c in (0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029)
}


def as_line(text: object) -> str:
    """Untrusted text (a file or list name, an error that quotes one) as a part of a line a
    person reads: what `for_terminal` takes out taken out first (rich drops a BEL before
    `console` sees the text, which would leave an OSC sequence open to swallow the rest of the
    line), then its line breaks escaped, so it cannot start a line that looks like the
    command's own."""
    return for_terminal(str(text)).translate(_LINE_BREAKS)


# what `for_terminal` keeps that would break a one-line name (or, a tab, widen it)
_NAME_BREAKS = "\t\n\u2028\u2029"
_NAME_BREAKS_AS_SPACES = dict.fromkeys(map(ord, _NAME_BREAKS), " ")
# what a one-line name may not hold: what `for_terminal` takes out, and those
_NOT_IN_NAME = re.compile(f"[{re.escape(_CONTROL + _BIDI + _NAME_BREAKS)}\ud800-\udfff]")


def as_name(text: str) -> str:
    """Untrusted text (a file's name, a `--list` value) as a name stored and shown on one
    line: what `for_terminal` takes out taken out, tabs and line breaks as spaces."""
    return for_terminal(text).translate(_NAME_BREAKS_AS_SPACES)


def name_error(text: str, what: str) -> str | None:
    """Why `text` cannot be the name of `what` a person gives (a collection, a followed author
    or search), stored and then shown on terminals, pages and in feeds: the first control,
    bidi control or line break it holds; None when it holds none."""
    if found := _NOT_IN_NAME.search(text):
        return f"{what} holds a control character (U+{ord(found.group()):04X})"
    return None


def file_name(path: str | os.PathLike[str]) -> str:
    """A path as text that can be printed and stored: bytes that are not UTF-8 (which Python
    keeps as lone surrogates) spelled as \\xNN."""
    text = os.fspath(path)
    return _spell_surrogates(text) if _SURROGATE.search(text) else text


def valid_text(text: str) -> str:
    """`text` with lone surrogates (JSON's `"\\ud800"`: no character, not storable as UTF-8)
    replaced by U+FFFD."""
    return _SURROGATE.sub("\ufffd", text)


def console(**kwargs: Any) -> Console:
    """A rich Console that strips what `for_terminal` strips from every text it renders (tables,
    progress bars, errors) and reads no markup in strings: `[bold]` in a title stays literal."""
    from rich.console import Console, ConsoleOptions, RenderableType
    from rich.segment import Segment

    class _Console(Console):
        def render(self, renderable: RenderableType, options: ConsoleOptions | None = None) -> Any:
            for segment in super().render(renderable, options):
                text = segment.text
                if segment.control or not _UNSAFE.search(text):
                    yield segment
                else:
                    yield Segment(for_terminal(text), segment.style, segment.control)

    kwargs.setdefault("markup", False)
    return _Console(**kwargs)
