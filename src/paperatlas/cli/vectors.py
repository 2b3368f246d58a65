"""CLI commands (see cli/__init__.py)."""

from paperatlas.cli.common import app  # noqa: F401
