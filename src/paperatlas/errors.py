"""Errors a user can act on. Raised by any stage; the CLI prints them as one line, exit 2."""


class PaperatlasError(Exception):
    """Base class: the message is complete and names the file (and line) at fault."""


class InputError(PaperatlasError):
    """A file that cannot be read as a paper list (missing, binary, malformed, ...)."""

    def __init__(self, path, message: str, line: int | None = None):
        where = f"{path}:{line}" if line is not None else f"{path}"
        super().__init__(f"{where}: {message}")
        self.path = path
        self.line = line


class StoreError(PaperatlasError):
    """A store that cannot be opened or used: missing, not an atlas, read-only, damaged,
    newer schema. The message names the database file."""


class SearchError(PaperatlasError):
    """A query that cannot be run (empty, bad paging, unknown paper)."""
