"""`paperatlas` command line: thin wrappers over `Atlas`. One module per area of commands,
each registering its commands on `app` (see cli/common.py for the shared options)."""

from __future__ import annotations

import sys

from paperatlas.cli.common import app, run_app

# Importing a module registers its commands on `app`; order sets the order in --help.
from paperatlas.cli import core  # noqa: E402,F401  add, ls, show, stats, export
from paperatlas.cli import understand  # noqa: E402,F401  enrich
from paperatlas.cli import vectors  # noqa: E402,F401  embed, train-areas
from paperatlas.cli import find  # noqa: E402,F401  search, similar
from paperatlas.cli import maps  # noqa: E402,F401  map, serve
from paperatlas.cli import reference  # noqa: E402,F401  reference ls/build/use
from paperatlas.cli import curate  # noqa: E402,F401  like, recommend, digest, compare


def main() -> None:
    sys.exit(run_app(app))
