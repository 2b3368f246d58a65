"""`paperatlas` command line: thin wrappers over `Atlas`. One module per area of commands,
each registering its commands on `app` (see cli/common.py for the shared options)."""

from __future__ import annotations

import sys

from paperatlas.cli.common import app, run_app

# Importing a module registers its commands on `app`; this order is the order in --help
# (typer lists commands as registered), so the import sorter must leave it alone.
# isort: off
from paperatlas.cli import opening  # noqa: F401  open
from paperatlas.cli import core  # noqa: F401  add, inspect, ls, show, stats, lists, export
from paperatlas.cli import understand  # noqa: F401  enrich
from paperatlas.cli import vectors  # noqa: F401  embed, models, train-areas
from paperatlas.cli import find  # noqa: F401  search, similar
from paperatlas.cli import maps  # noqa: F401  map, serve
from paperatlas.cli import reference  # noqa: F401  reference ls/build/use
from paperatlas.cli import curate  # noqa: F401  like, dislike, unlike, collections, recommend, digest, compare
from paperatlas.cli import keep  # noqa: F401  mark, tag, untag, tags, note, personal export/import
from paperatlas.cli import follow  # noqa: F401  follow search/author/topic/ls/rm, feed, seen, schedule
from paperatlas.cli import backup  # noqa: F401  backup, restore
from paperatlas.cli import llm  # noqa: F401  llm summarize/title/title-en

# isort: on


def main() -> None:
    sys.exit(run_app(app))
