"""What a person keeps about papers: `mark` (read, skipped, saved), `tag` / `untag` /
`tags`, `note`, and `personal export|import` (every like, collection, state, note, tag,
follow and list's "last seen" as one JSON file). Thin: parse, call `Atlas`, print."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from paperatlas.cli.common import (
    DbOption,
    UserError,
    app,
    check_output,
    console,
    err_console,
    open_atlas,
    plural,
)

IdsArgument = Annotated[
    list[str], typer.Argument(metavar="ID...", help="Paper ids or unique prefixes.", show_default=False)
]


class State(StrEnum):
    read = "read"
    skipped = "skipped"
    saved = "saved"
    none = "none"


def _say(message: str) -> None:
    err_console.print(Text(message))


@app.command()
def mark(
    state: Annotated[
        State,
        typer.Argument(
            help="read, skipped, saved (for later), or none (clear the state).", show_default=False
        ),
    ],
    ids: IdsArgument,
    db: DbOption = None,
) -> None:
    """Triage papers: mark them read, skipped or saved for later (`none` clears it)."""
    done = open_atlas(db).set_state(ids, None if state is State.none else state.value)
    what = "cleared the state of" if state is State.none else f"marked {state.value}:"
    _say(f"{what} {plural(len(done), 'paper')}: {', '.join(done)}")


@app.command()
def tag(
    paper_id: Annotated[
        str, typer.Argument(metavar="ID", help="Paper id or unique prefix.", show_default=False)
    ],
    tags: Annotated[
        list[str],
        typer.Argument(
            metavar="TAG...", help="Tags: letters, digits, - _ / . + (spaces become -).", show_default=False
        ),
    ],
    db: DbOption = None,
) -> None:
    """Tag a paper (tags are kept in lower case, with counts: `paperatlas tags`)."""
    (full,) = open_atlas(db).tag([paper_id], tags)
    _say(f"tagged {full}: {', '.join(tags)}")


@app.command()
def untag(
    paper_id: Annotated[
        str, typer.Argument(metavar="ID", help="Paper id or unique prefix.", show_default=False)
    ],
    tags: Annotated[
        list[str], typer.Argument(metavar="TAG...", help="Tags to take off.", show_default=False)
    ],
    db: DbOption = None,
) -> None:
    """Take tags off a paper."""
    done = open_atlas(db).untag([paper_id], tags)
    _say(f"untagged {done[0]}" if done else f"{paper_id} carried none of these tags")


@app.command()
def tags(db: DbOption = None) -> None:
    """List tags with how many papers carry each."""
    counts = open_atlas(db).tag_counts()
    if not counts:
        _say("no tags yet: `paperatlas tag ID TAG…` adds one")
        return
    table = Table(header_style="bold")
    table.add_column("tag")
    table.add_column("papers", justify="right")
    for name, n in counts.items():
        table.add_row(Text(name), str(n))
    console.print(table)


@app.command()
def note(
    paper_id: Annotated[
        str, typer.Argument(metavar="ID", help="Paper id or unique prefix.", show_default=False)
    ],
    text: Annotated[
        str | None,
        typer.Argument(
            metavar="[TEXT]",
            help="The note (Markdown); '-' reads it from stdin; left out, the paper's note is printed.",
            show_default=False,
        ),
    ] = None,
    clear: Annotated[bool, typer.Option("--clear", help="Remove the paper's note.")] = False,
    db: DbOption = None,
) -> None:
    """Write (or print) a paper's Markdown note: `note ID "text"`, `note ID - < file.md`."""
    atlas = open_atlas(db)
    if clear and text is not None:
        raise UserError("give a note or --clear, not both")
    if text is None and not clear:
        full = atlas.resolve_id(paper_id)
        if full is None:
            raise UserError(f"unknown or ambiguous paper id: {paper_id}")
        kept = atlas.kept([full]).get(full)
        if kept is None or not kept.note:
            _say(f"{full} has no note")
        else:
            console.print(Text(kept.note))
        return
    if text == "-":
        text = sys.stdin.read()
    full = atlas.set_note(paper_id, "" if clear else text or "")
    _say(f"removed the note of {full}" if clear or not (text or "").strip() else f"wrote the note of {full}")


personal_app = typer.Typer(
    help="Your own data in the atlas (likes, collections, read/skipped/saved, notes, tags, follows, "
    'lists\' "last seen") as one JSON file.',
    no_args_is_help=True,
)
app.add_typer(personal_app, name="personal")

# the personal-data file's sections, as a count of them is said
_NOUNS = {
    "marks": "mark",
    "states": "state",
    "notes": "note",
    "tags": "tag",
    "follows": "follow",
    "list_seen": "last-seen time",
}

FileArgument = Annotated[
    Path, typer.Argument(metavar="FILE", help="The personal-data JSON file.", show_default=False)
]


@personal_app.command("export")
def personal_export(path: FileArgument, db: DbOption = None) -> None:
    """Write every like, collection, state, note, tag, follow and list's "last seen" to FILE
    (docs/formats.md)."""
    check_output(path, "FILE")
    counts = open_atlas(db).export_personal(path)
    _say(f"wrote {path}: " + ", ".join(plural(n, _NOUNS[name]) for name, n in counts.items()))


@personal_app.command("import")
def personal_import(path: FileArgument, db: DbOption = None) -> None:
    """Merge FILE into the atlas (states and marks set, tags added, a different note kept below
    the atlas's own, follows added, each list's "last seen" the later one); a bad file
    changes nothing."""
    report = open_atlas(db).import_personal(path)
    line = (
        f"imported {path}: {plural(report.marks, 'mark')}, {plural(report.states, 'state')}, "
        f"{plural(report.notes, 'note')}, {plural(report.tags, 'tag')}, "
        f"{plural(report.follows, 'new follow')}, {plural(report.list_seen, 'later last-seen time')}"
    )
    if report.marks_missing:
        line += f" ({plural(report.marks_missing, 'mark')} left out: their papers are not in this atlas)"
    _say(line)
