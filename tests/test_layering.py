"""The pipeline's layering, checked from the import graph of the source.

Every import statement of every module under src/paperatlas counts, wherever it stands: at the
top, inside a function, under TYPE_CHECKING. A module may import from its own package, from the
core helpers and from layers below its own; cli/ and web/ reach the library only through its
front (api, results) and the core; and no two modules import each other, directly or round a
loop (a package's __init__ importing a submodule that imports the package back is a loop too).
import-linter checks the same contracts in `make lint` (pyproject.toml, [tool.importlinter]).
"""

from __future__ import annotations

import ast
import functools
import re
import tomllib
from pathlib import Path

from source_ast import parse

SRC = Path(__file__).resolve().parent.parent / "src"
ROOT = "paperatlas"

# Top to bottom: a module may import from its own row and the rows below it.
LAYERS: list[tuple[str, ...]] = [
    ("cli",),
    ("web",),
    ("api",),
    ("results",),
    ("report",),
    ("compare", "recommend"),  # side by side: neither imports the other
    ("likes",),
    ("atlas",),
    ("search",),
    ("enrich", "llm"),  # side by side: the model the user brings is a stage after enrich
    ("embed",),
    ("ingest",),
    ("sources",),
    ("store",),
    # core
    (
        "paper",
        "errors",
        "identifiers",
        "workers",
        "progress",
        "cache",
        "text",
        "ray_batches",
        "assets",
        "printable",
        "filters",
    ),
]
CORE = set(LAYERS[-1])
# The front and what cli/ and web/ may use of the library besides themselves and the core.
FRONT = {"api", "results"}
# `paperatlas serve` starts the web app.
EXTRA_ALLOWED = {"cli": {"web"}}

RANK = {unit: len(LAYERS) - i for i, row in enumerate(LAYERS) for unit in row}


def module_files() -> dict[str, Path]:
    """Module name -> file, for every .py under src/paperatlas."""
    out = {}
    for path in sorted((SRC / ROOT).rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _resolve_from(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute module an `from X import ...` names (relative levels resolved)."""
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module: str, path: Path, modules: set[str]) -> dict[str, int]:
    """The library modules `module` imports -> the first line that does, from the whole AST."""
    tree = parse(path)
    is_package = path.name == "__init__.py"
    found: dict[str, int] = {}

    def add(target: str, line: int) -> None:
        # `import a.b.c` or a name that is no module: the longest prefix that is a module
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != module:
            found.setdefault(target, line)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == ROOT or alias.name.startswith(ROOT + "."):
                    add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve_from(node, module, is_package)
            if base != ROOT and not base.startswith(ROOT + "."):
                continue
            for alias in node.names:
                # `from a import x` where x is a submodule imports a.x, else the package a
                sub = f"{base}.{alias.name}"
                add(sub if sub in modules else base, node.lineno)
    return found


@functools.cache
def import_graph() -> dict[str, dict[str, int]]:
    files = module_files()
    names = set(files)
    return {m: imports_of(m, p, names) for m, p in files.items()}


def unit_of(module: str) -> str:
    """The layer unit of a module: its first name under paperatlas ('search' for
    paperatlas.search.fusion), or '' for the package root."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, {})))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def layer_violations(graph: dict[str, dict[str, int]]) -> list[str]:
    """Each import against the layer order or the front rule, as 'importer -> imported (line N): why'."""
    out = []
    for importer, targets in sorted(graph.items()):
        src = unit_of(importer)
        if src == "":
            continue  # the package root re-exports the front (Atlas, Paper)
        for imported, line in sorted(targets.items()):
            dst = unit_of(imported)
            where = f"{importer} -> {imported} (line {line})"
            if dst == "":
                out.append(f"{where}: imports the package root (which imports the front)")
            elif src == dst or dst in CORE:
                continue
            elif src in ("cli", "web") and dst not in FRONT | EXTRA_ALLOWED.get(src, set()):
                out.append(f"{where}: {src}/ uses the library only through api and results")
            elif RANK[src] <= RANK[dst]:
                out.append(f"{where}: {src} is not above {dst}")
    return out


def unplaced_modules(graph: dict[str, dict[str, int]]) -> list[str]:
    return sorted(m for m in graph if unit_of(m) and unit_of(m) not in RANK)


# --- the helpers themselves, on small made-up graphs ----------------------------------------


def test_cycles_finds_loops_and_leaves_chains():
    chain = {"a": {"b": 1}, "b": {"c": 1}, "c": {}}
    assert cycles(chain) == []
    loop = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}
    assert cycles(loop) == [["a", "b", "c"]]
    assert cycles({"a": {"b": 1}, "b": {"a": 1}, "c": {"d": 1}, "d": {"c": 1}}) == [["a", "b"], ["c", "d"]]


def test_layer_rule_on_made_up_imports():
    graph = {
        "paperatlas.search.fusion": {"paperatlas.embed.base": 3, "paperatlas.paper": 4},
        "paperatlas.embed.base": {"paperatlas.search.query": 7},
        "paperatlas.web.app": {"paperatlas.api": 1, "paperatlas.store": 2},
        "paperatlas.cli.core": {"paperatlas.web.server": 5, "paperatlas.results": 6},
        "paperatlas.compare": {"paperatlas.recommend": 9},
    }
    assert layer_violations(graph) == [
        "paperatlas.compare -> paperatlas.recommend (line 9): compare is not above recommend",
        "paperatlas.embed.base -> paperatlas.search.query (line 7): embed is not above search",
        "paperatlas.web.app -> paperatlas.store (line 2): web/ uses the library only through api and results",
    ]


def test_imports_inside_functions_and_relative_ones_count(tmp_path):
    path = tmp_path / "x.py"
    path.write_text(
        "from __future__ import annotations\n"
        "def f():\n"
        "    from paperatlas.store import Store\n"
        "    import paperatlas.embed.static\n"
        "from . import fusion\n"
        "from .query import parse\n"
    )
    modules = {"paperatlas.store", "paperatlas.embed", "paperatlas.embed.static", "paperatlas.search.fusion"}
    modules |= {"paperatlas.search.query", "paperatlas.search.x"}
    got = imports_of("paperatlas.search.x", path, modules)
    assert got == {
        "paperatlas.store": 3,
        "paperatlas.embed.static": 4,
        "paperatlas.search.fusion": 5,
        "paperatlas.search.query": 6,
    }


# --- the real source tree -------------------------------------------------------------------


def test_the_graph_sees_the_whole_package():
    graph = import_graph()
    assert "paperatlas.api" in graph and "paperatlas.store" in graph
    assert sum(len(t) for t in graph.values()) > 100  # the imports are really read
    assert unplaced_modules(graph) == [], "a new top-level module needs its row in LAYERS (and pyproject)"


def test_no_import_cycles():
    found = cycles(import_graph())
    assert found == [], "import cycles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_imports_follow_the_layers():
    found = layer_violations(import_graph())
    assert found == [], f"{len(found)} imports against the layers:\n" + "\n".join(found)


def test_the_package_never_imports_research():
    """research/ holds experiments that were not shipped: no module of the product imports one."""
    research = {p.stem for p in (SRC.parent / "research").rglob("*.py")} | {"research"}
    found = [
        f"{path.relative_to(SRC)}:{node.lineno}: {name}"
        for path in module_files().values()
        for node in ast.walk(parse(path))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for name in (
            [a.name for a in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""] * (not node.level)
        )
        if name.partition(".")[0] in research
    ]
    assert not found


def test_import_linter_contracts_state_the_same_layers():
    """`make lint` runs import-linter on pyproject's contracts: they must say what this test says."""
    config = tomllib.loads((SRC.parent / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = {c["type"]: c for c in config["tool"]["importlinter"]["contracts"]}
    rows = [tuple(part.strip() for part in re.split(r"[|:]", row)) for row in contracts["layers"]["layers"]]
    assert rows == [tuple(f"{ROOT}.{unit}" for unit in row) for row in LAYERS]
    forbidden = set(contracts["forbidden"]["forbidden_modules"])
    below_front = {f"{ROOT}.{u}" for row in LAYERS for u in row} - {
        f"{ROOT}.{u}" for u in {"cli", "web"} | FRONT | CORE
    }
    assert set(contracts["forbidden"]["source_modules"]) == {f"{ROOT}.cli", f"{ROOT}.web"}
    assert forbidden == below_front
