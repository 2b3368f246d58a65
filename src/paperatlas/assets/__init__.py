"""The files both the web app and the standalone atlas.html use: the style sheet, the
map and app scripts, the icon. One copy in one package of the core layer, so web/
(which serves them) and report/ (which inlines them) read it through an import the
layering rules can check, not through a path into another layer's folder."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def static_dir() -> Path:
    """The folder of the files (served as /static by the web app)."""
    # an installed or source-tree package is a folder on disk (no zip imports here)
    return Path(str(files(__name__).joinpath("static")))


def read_static(name: str) -> str:
    """One file's text, as stored (UTF-8)."""
    return files(__name__).joinpath("static", name).read_text(encoding="utf-8")
