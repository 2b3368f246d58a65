"""A personal schedule: the chosen papers that a conference program gives a time for, as
iCalendar (RFC 5545) events, written with the icalendar package.

A program's fields reach a paper's `extra` as the list names them (sources/records.py);
the times are read from `date` with `start`/`end` ("1:30pm", "13:30") or from a full
`start`/`end` date-time, the zone from `tz` (an IANA name, or a common abbreviation with
its fixed offset; none: the local time of the venue, a "floating" time), the place from
`room` or `location`, the session from `session`. A paper without a start is left out."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from paperatlas.paper import shown_title
from paperatlas.report.links import paper_url, safe_url

_START = ("start", "start_time", "starts", "session_start", "time")
_END = ("end", "end_time", "ends", "session_end")
_ROOM = ("room", "location", "place")
# abbreviations a program writes, with the offset each one names (ambiguous ones, like
# CST or IST, are left out: such a time stays floating)
_ZONES = {
    "UTC": 0, "GMT": 0, "WET": 0, "BST": 1, "CET": 1, "WEST": 1, "CEST": 2, "EET": 2, "EEST": 3,
    "EST": -5, "EDT": -4, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7, "HST": -10,
    "JST": 9, "KST": 9, "HKT": 8, "SGT": 8, "AEST": 10, "AEDT": 11, "NZST": 12, "NZDT": 13,
}  # fmt: skip
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # no calendar shows them; some refuse the file
_CLOCK = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s*m?\.?\s*$|^\s*(\d{1,2}):(\d{2})\s*$", re.I)


def _first(extra: Mapping[str, Any], keys: Iterable[str]) -> str | None:
    for key in keys:
        value = extra.get(key)
        if isinstance(value, (str, int, float)) and str(value).strip():
            return _CONTROL.sub("", str(value)).strip()
    return None


def zone_of(text: str | None) -> tzinfo | None:
    """'America/Los_Angeles' or 'PDT' -> a zone; None where it names none we can be sure of."""
    if not text:
        return None
    word = text.strip().split(" ")[0]
    if word.upper() in _ZONES:
        return timezone(timedelta(hours=_ZONES[word.upper()]), word.upper())
    try:
        return ZoneInfo(word)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def clock(text: str) -> time | None:
    """'1:30pm' / '1 pm' / '13:30' -> a time of day; None if it is not one."""
    m = _CLOCK.match(text)
    if not m:
        return None
    if m.group(4) is not None:
        hour, minute = int(m.group(4)), int(m.group(5))
    else:
        hour, minute = int(m.group(1)) % 12, int(m.group(2) or 0)
        hour += 12 if m.group(3).lower() == "p" else 0
    return time(hour, minute) if hour < 24 and minute < 60 else None


def moment(value: str | None, day: date | None, zone: tzinfo | None) -> datetime | None:
    """A start or end: a clock time on `day`, or a whole ISO date-time."""
    if not value:
        return None
    at = clock(value)
    if at is not None:
        return _portable(datetime.combine(day, at, zone)) if day else None
    try:
        found = datetime.fromisoformat(value)
    except ValueError:
        return None
    return _portable(found if found.tzinfo else found.replace(tzinfo=zone))


def _portable(at: datetime) -> datetime:
    """A fixed offset as UTC (a calendar knows no zone called "PDT"); a named zone kept,
    its definition added to the file."""
    return at if at.tzinfo is None or isinstance(at.tzinfo, ZoneInfo) else at.astimezone(UTC)


def slot(paper: Mapping[str, Any]) -> tuple[datetime, datetime | None, str | None, str | None] | None:
    """(start, end, room, session) the program gives a paper; None without a start."""
    extra = paper.get("extra") or {}
    if not isinstance(extra, Mapping):
        return None
    day = None
    with_day = _first(extra, ("date", "session_date"))
    if with_day:
        try:
            day = date.fromisoformat(with_day[:10])
        except ValueError:
            day = None
    zone = zone_of(_first(extra, ("tz", "timezone", "time_zone")))
    start = moment(_first(extra, _START), day, zone)
    if start is None:
        return None
    end = moment(_first(extra, _END), day, zone)
    if end is not None and end <= start:
        end = None
    return start, end, _first(extra, _ROOM), _first(extra, ("session", "session_title", "session_name"))


def calendar_bytes(
    papers: Iterable[Mapping[str, Any]], name: str = "paperatlas schedule"
) -> tuple[bytes, int]:
    """The iCalendar file of the papers that have a slot, and how many events it holds."""
    from icalendar import Calendar, Event

    cal = Calendar()
    cal.add("prodid", "-//paperatlas//schedule//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", name)
    count = 0
    stamp = datetime.now(UTC).replace(microsecond=0)
    for paper in papers:
        found = slot(paper)
        if found is None:
            continue
        start, end, room, session = found
        event = Event()
        event.add("uid", f"{paper['id']}@paperatlas")
        event.add("dtstamp", stamp)
        event.add("summary", _CONTROL.sub("", shown_title(paper) or str(paper["id"])))
        event.add("dtstart", start)
        if end is not None:
            event.add("dtend", end)
        if room:
            event.add("location", room)
        lines = [f"Session: {session}"] if session else []
        authors = [_CONTROL.sub("", a) for a in paper.get("authors") or [] if isinstance(a, str)]
        if authors:
            lines.append(", ".join(authors))
        url = safe_url(paper_url(dict(paper)))
        if url:
            event.add("url", url)
            lines.append(url)
        if lines:
            event.add("description", "\n".join(lines))
        cal.add_component(event)
        count += 1
    cal.add_missing_timezones()  # a VTIMEZONE for each named zone the events use
    return cal.to_ical(), count
