"""Follow commands: saved searches, authors and topics, their Atom feed, "new since I last
looked", and a personal schedule.

paperatlas follow search QUERY [filters]   save a search to follow
paperatlas follow author NAME              follow an author (case and accents ignored)
paperatlas follow topic ID [--level 1] [--list L]   follow a topic of a map
paperatlas follow ls | rm ID               what is followed; stop following
paperatlas feed --out FILE.atom            the papers the follows matched, as an Atom feed
paperatlas seen LIST                       mark a list seen (`ls --list LIST --new` shows what came since)
paperatlas schedule --out FILE.ics         saved and liked papers with a program slot, as iCalendar
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from paperatlas.cli.common import (
    AreaOption,
    CodeOption,
    DbOption,
    DecisionOption,
    KindOption,
    ListOption,
    StateOption,
    TagOption,
    UserError,
    app,
    check_output,
    console,
    err_console,
    filters_of_options,
    open_atlas,
    plural,
    require_list,
)

if TYPE_CHECKING:
    from paperatlas.results import Follow

follow_app = typer.Typer(
    help="Follow saved searches, authors and topics: `paperatlas feed` writes what they match.",
    no_args_is_help=True,
)
app.add_typer(follow_app, name="follow")


def _said(follow: Follow, new: bool) -> None:
    verb = "following" if new else "already following"
    console.print(Text(f"{verb} #{follow.id}: {follow.title}"))


@follow_app.command("search")
def follow_search(
    query: Annotated[str, typer.Argument(help="The words to search for.")],
    list_name: ListOption = None,
    area: AreaOption = None,
    decision: DecisionOption = None,
    kind: KindOption = None,
    has_code: CodeOption = None,
    tag: TagOption = None,
    state: StateOption = None,
    db: DbOption = None,
) -> None:
    """Save a search: new papers its words match (within the filters) go to the feed."""
    atlas = open_atlas(db)
    filters = filters_of_options(list_name, area, kind, decision, has_code, tag, state)
    _said(*atlas.follow_search(query, filters))


@follow_app.command("author")
def follow_author(
    name: Annotated[str, typer.Argument(help="The name as lists write it (case and accents ignored).")],
    db: DbOption = None,
) -> None:
    """Follow an author: their new papers go to the feed."""
    _said(*open_atlas(db).follow_author(name))


@follow_app.command("topic")
def follow_topic(
    topic_id: Annotated[
        int, typer.Argument(metavar="ID", help="The topic's number on the map (`map` shows it).")
    ],
    level: Annotated[int, typer.Option("--level", min=0, max=1, help="0 broad topic, 1 fine topic.")] = 0,
    list_name: ListOption = None,
    db: DbOption = None,
) -> None:
    """Follow a topic of a list's map (or of the map of all papers): its new papers go to the feed."""
    atlas = open_atlas(db)
    require_list(atlas, list_name)
    _said(*atlas.follow_topic(topic_id, level=level, list_name=list_name))


@follow_app.command("ls")
def follow_ls(db: DbOption = None) -> None:
    """What you follow, with when each was made and its last feed."""
    follows = open_atlas(db).follows()
    if not follows:
        console.print(Text("nothing followed yet (paperatlas follow search|author|topic)"))
        return
    table = Table(header_style="bold")
    for column in ("#", "follows", "since", "last feed"):
        table.add_column(column)
    for f in follows:
        table.add_row(str(f.id), Text(f.title), f.created_at, f.fed_at or "")
    console.print(table)


@follow_app.command("rm")
def follow_rm(
    follow_id: Annotated[int, typer.Argument(metavar="ID", help="The follow's number (`follow ls`).")],
    db: DbOption = None,
) -> None:
    """Stop following."""
    if not open_atlas(db).unfollow(follow_id):
        raise UserError(f"no follow {follow_id} (see `paperatlas follow ls`)")
    console.print(Text(f"no longer following #{follow_id}"))


@app.command()
def feed(
    out: Annotated[Path, typer.Option("--out", "-o", help="The Atom file to write (FILE.atom).")],
    follow_id: Annotated[
        int | None,
        typer.Option("--follow", help="Only this follow (default: all of them).", show_default=False),
    ] = None,
    site_url: Annotated[
        str | None,
        typer.Option(
            "--site-url",
            help="Where `paperatlas serve` runs (http://127.0.0.1:8000): entries link to their page there.",
            show_default=False,
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Write an Atom feed of the papers your follows matched since the last feed, newest first."""
    check_output(out, "--out")
    count = open_atlas(db).write_feed(out, follow_id=follow_id, site_url=site_url)
    err_console.print(Text(f"wrote {plural(count, 'paper')} to {out}"))


@app.command()
def seen(
    list_name: Annotated[str, typer.Argument(metavar="LIST", help="The list you have looked through.")],
    db: DbOption = None,
) -> None:
    """Mark a list seen: `ls --list LIST --new` then shows only papers added after now."""
    atlas = open_atlas(db)
    require_list(atlas, list_name)
    new = len(atlas.new_papers(list_name))
    atlas.mark_seen(list_name)
    console.print(Text(f"'{list_name}' seen ({plural(new, 'new paper')} marked seen)"))


@app.command()
def schedule(
    out: Annotated[Path, typer.Option("--out", "-o", help="The iCalendar file to write (FILE.ics).")],
    collection: Annotated[
        str, typer.Option("--collection", "-c", help="Liked papers of this collection.")
    ] = "likes",
    db: DbOption = None,
) -> None:
    """Write your saved and liked papers that their program gives a time as iCalendar events."""
    check_output(out, "--out")
    events, chosen = open_atlas(db).write_schedule(out, collection=collection)
    said = f"wrote {plural(events, 'event')} to {out}"
    if events < chosen:  # why a saved paper is missing from the calendar
        said += f" ({chosen - events} of {plural(chosen, 'saved or liked paper')} have no time in their list)"
    err_console.print(Text(said))
