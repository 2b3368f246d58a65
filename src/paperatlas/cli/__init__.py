"""`paperatlas` command line: thin wrappers over `Atlas`. One module per area of commands,
each registering its commands on `app` (see cli/common.py for the shared options)."""

from __future__ import annotations

import sys

# Importing a module registers its commands on `app`; order sets the order in --help.
from paperatlas.cli import (
    core,  # noqa: F401  add, ls, show, stats, export
    curate,  # noqa: F401  like, recommend, digest, compare
    find,  # noqa: F401  search, similar
    maps,  # noqa: F401  map, serve
    reference,  # noqa: F401  reference ls/build/use
    understand,  # noqa: F401  enrich
    vectors,  # noqa: F401  embed, train-areas
)
from paperatlas.cli.common import app, run_app


def main() -> None:
    sys.exit(run_app(app))
