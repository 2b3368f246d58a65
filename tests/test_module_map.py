"""Every module of the package has a line in docs/DEVELOPING.md's module map.

The map is where a newcomer finds which module does what; a module missing from it is one
they cannot find. The map's section is read block by block (blocks are separated by blank
lines): a block that starts with `**pkg/**` names that package's modules by their file name
(`fusion.py`; a subpackage's by its folder, `pages/`, and file name); the other blocks (the
core table, `**api.py**`) name the top-level modules, and a package of one module by its
folder (`assets/`).
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "src" / "paperatlas"
DEVELOPING = REPO / "docs" / "DEVELOPING.md"

_PACKAGE_BLOCK = re.compile(r"\*\*(\w+)/\*\*")
_FILE = re.compile(r"(?<![\w/])((?:\w+/)*\w+\.py)\b")
_FOLDER = re.compile(r"(?<![\w/.])(\w+)/")


def map_section(text: str) -> str:
    """The text between the '## Module map' heading and the next '## ' heading."""
    start = text.index("\n## Module map")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def named_modules(section: str) -> set[str]:
    """The module paths (relative to the package, `search/fusion.py`) the map names."""
    named: set[str] = set()
    for block in re.split(r"\n\s*\n", section):
        head = _PACKAGE_BLOCK.match(block.strip())
        files = _FILE.findall(block)
        if head is None:
            named.update(files)
            named.update(f"{folder}/__init__.py" for folder in _FOLDER.findall(block))
            continue
        package = head.group(1)
        named.add(f"{package}/__init__.py")
        named.update(f"{package}/{f}" for f in files)
        for folder in _FOLDER.findall(block):
            named.add(f"{package}/{folder}/__init__.py")
            named.update(f"{package}/{folder}/{f}" for f in files)
    return named


def unnamed(modules: list[str], section: str) -> list[str]:
    named = named_modules(section)
    return [m for m in modules if m not in named]


def test_reading_the_map_by_package():
    section = (
        "## Module map\n\n| `paper.py` | the record |\n\n"
        "**search/** — `engine.py` runs a search; `vectors.py` (the vector side).\n\n"
        "**web/** — `app.py`; one module per page group in `pages/` (`overview.py`).\n"
    )
    modules = ["paper.py", "vectors.py", "search/engine.py", "search/vectors.py", "search/keyword.py"]
    modules += ["web/app.py", "web/pages/overview.py", "web/pages/__init__.py", "web/routes.py"]
    # a module is named only in its own package's block
    assert unnamed(modules, section) == ["vectors.py", "search/keyword.py", "web/routes.py"]


def test_every_module_is_in_the_module_map():
    modules = sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py"))
    section = map_section(DEVELOPING.read_text(encoding="utf-8"))
    missing = unnamed(modules, section)
    assert not missing, "docs/DEVELOPING.md's module map does not name: " + ", ".join(missing)
