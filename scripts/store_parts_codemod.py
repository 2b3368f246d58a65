"""Rewrite calls of the methods `Store` once mixed in to the part that now holds them:
`store.get_vectors(m)` becomes `store.vectors.get(m)`, `store.count_papers()` becomes
`store.papers.count()` (RENAMES is the whole table).

Which expressions are Stores is decided by mypy, not by how they are spelt: the files are
type-checked (bodies of unannotated functions too) and an attribute of RENAMES is rewritten
where mypy says its receiver is a `Store`. Where mypy cannot tell (a pytest fixture's
parameter is untyped) only a receiver spelt as a store is (`store`, `st`, `….store`,
UNTYPED_RECEIVERS); every other untyped use of an old name is listed for a person to look
at. `monkeypatch.setattr(store, "get_vectors", f)` and `getattr`-like calls with the name as
a string are rewritten the same way, and so is a part's own code written when it was a mixin
(`self.vector_dim(m)` in VectorRows becomes `self.dim(m)`; another part's name there is listed). Text outside code is rewritten where it names the
method on a store (`Store.vector_state`, `store.facts_pending()`): comments, docstrings,
README.md and docs/ (not the measurements kept in docs/benchmarks.md and docs/bench/, which
name what was measured then).

Running it twice changes nothing: a rewritten call's receiver is a part, not a Store, and
the two old names that are also part names (`marks`, `follows`) are rewritten only where
they are called. Run from the repository root, with the project on the path:

    PYTHONPATH=src python scripts/store_parts_codemod.py            # rewrite, ruff format them
    PYTHONPATH=src python scripts/store_parts_codemod.py --check    # list; exit 1 if any

then `mypy` and the tests: an old name left on a Store is an error mypy names (src/).
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
import tempfile
import tokenize
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

from mypy import build
from mypy.find_sources import create_source_list
from mypy.main import process_options
from mypy.nodes import CallExpr, Expression, MemberExpr, MypyFile, NameExpr, StrExpr
from mypy.server.subexpr import get_subexpressions
from mypy.types import AnyType, Instance, NoneType, Type, UnionType, get_proper_type

# old Store method -> (part attribute, method name on the part)
RENAMES: dict[str, tuple[str, str]] = {
    # store.papers (papers.py)
    "insert_paper": ("papers", "insert"),
    "insert_papers": ("papers", "insert_many"),
    "insert_paper_values": ("papers", "insert_values"),
    "update_paper": ("papers", "update"),
    "rekey_paper": ("papers", "rekey"),
    "get_paper": ("papers", "get"),
    "get_papers": ("papers", "get_many"),
    "resolve_id": ("papers", "resolve_id"),
    "existing_ids": ("papers", "existing_ids"),
    "iter_papers": ("papers", "iter"),
    "count_matching": ("papers", "count_matching"),
    "title_rows": ("papers", "title_rows"),
    "iter_titles": ("papers", "titles"),
    "count_papers": ("papers", "count"),
    "all_ids": ("papers", "ids"),
    "papers_signature": ("papers", "signature"),
    "papers_titled": ("papers", "titled"),
    "has_title_index": ("papers", "has_title_index"),
    # store.lists (lists.py)
    "ensure_list": ("lists", "ensure"),
    "list_records": ("lists", "records"),
    "set_list_records": ("lists", "set_records"),
    "list_members_state": ("lists", "members_state"),
    "list_file": ("lists", "file"),
    "set_list_file": ("lists", "set_file"),
    "add_member": ("lists", "add_member"),
    "add_members": ("lists", "add_members"),
    "next_position": ("lists", "next_position"),
    "list_names": ("lists", "names"),
    "lists_of": ("lists", "containing"),
    "members_among": ("lists", "members_among"),
    "kind_counts": ("lists", "kind_counts"),
    "list_stats": ("lists", "stats"),
    # store.dedup (dedup.py)
    "add_hashes": ("dedup", "add_hashes"),
    "papers_for_hashes": ("dedup", "papers_for_hashes"),
    "set_minhashes": ("dedup", "set_minhashes"),
    "iter_minhashes": ("dedup", "iter_minhashes"),
    "count_minhashes": ("dedup", "count_minhashes"),
    "add_identifiers": ("dedup", "add_identifiers"),
    "papers_for_identifiers": ("dedup", "papers_for_identifiers"),
    "has_identifiers": ("dedup", "has_identifiers"),
    # store.fts (fts.py)
    "fts_search": ("fts", "search"),
    "fts_scores": ("fts", "scores"),
    "fts_postings": ("fts", "postings"),
    "fts_token_postings": ("fts", "token_postings"),
    "fts_token_counts": ("fts", "token_counts"),
    "fts_doc_sizes": ("fts", "doc_sizes"),
    "fts_version": ("fts", "version"),
    "rowids_to_ids": ("fts", "rowids_to_ids"),
    "fts_row_ids": ("fts", "row_ids"),
    "fts_tokens": ("fts", "tokens"),
    "fts_doc_freq": ("fts", "doc_freq"),
    "bulk_fts": ("fts", "bulk"),
    # store.facts (facts.py)
    "set_facts": ("facts", "set"),
    "set_facts_many": ("facts", "set_many"),
    "get_facts": ("facts", "get"),
    "facts_for": ("facts", "get_many"),
    "card_facts": ("facts", "for_cards"),
    "paper_names": ("facts", "paper_names"),
    "facts_state": ("facts", "state"),
    "facts_inputs_page": ("facts", "inputs_page"),
    "facts_pending": ("facts", "pending"),
    # store.vectors (vectors.py)
    "put_vectors": ("vectors", "put"),
    "vector_state": ("vectors", "state"),
    "vector_inputs_page": ("vectors", "inputs_page"),
    "get_vectors": ("vectors", "get"),
    "vector_dim": ("vectors", "dim"),
    "vector_models": ("vectors", "models"),
    "count_vectors": ("vectors", "count"),
    "vector_signature": ("vectors", "signature"),
    "vector_version": ("vectors", "version"),
    "vector_models_version": ("vectors", "models_version"),
    "delete_vectors": ("vectors", "delete"),
    "put_embed_model": ("vectors", "put_model"),
    "embed_model_meta": ("vectors", "model_meta"),
    "get_embed_model": ("vectors", "get_model"),
    # store.maps (maps.py)
    "save_map": ("maps", "save"),
    "get_map": ("maps", "get"),
    "map_paper_texts": ("maps", "paper_texts"),
    "map_header": ("maps", "header"),
    "map_point_pages": ("maps", "point_pages"),
    "map_point_rows": ("maps", "point_rows"),
    "map_places": ("maps", "places"),
    "map_paper_ids": ("maps", "paper_ids"),
    "map_title_matches": ("maps", "title_matches"),
    # store.marks (marks.py)
    "set_mark": ("marks", "set"),
    "remove_mark": ("marks", "remove"),
    "marks": ("marks", "rows"),
    "collections": ("marks", "collections"),
    # store.kept (kept.py)
    "kept_for": ("kept", "for_papers"),
    "set_state": ("kept", "set_state"),
    "states": ("kept", "states"),
    "ids_in_state": ("kept", "ids_in_state"),
    "state_counts": ("kept", "state_counts"),
    "set_note": ("kept", "set_note"),
    "notes": ("kept", "notes"),
    "add_tags": ("kept", "add_tags"),
    "remove_tags": ("kept", "remove_tags"),
    "tags_of": ("kept", "tags_of"),
    "tag_counts": ("kept", "tag_counts"),
    "ids_with_tag": ("kept", "ids_with_tag"),
    "kept_rows": ("kept", "rows"),
    "add_tag_row": ("kept", "add_tag_row"),
    # store.llm (llm.py)
    "llm_done": ("llm", "done"),
    "put_llm_result": ("llm", "put_result"),
    "llm_accepted": ("llm", "accepted"),
    "llm_stats": ("llm", "stats"),
    # store.follows (follows.py)
    "add_follow": ("follows", "add"),
    "follows": ("follows", "rows"),
    "remove_follow": ("follows", "remove"),
    "set_fed": ("follows", "set_fed"),
    "papers_added_since": ("follows", "papers_added_since"),
    "added_times": ("follows", "added_times"),
    "topic_paper_ids": ("follows", "topic_paper_ids"),
    "topic_label": ("follows", "topic_label"),
    "topic_by_label": ("follows", "topic_by_label"),
    "list_seen": ("follows", "list_seen"),
    "mark_list_seen": ("follows", "mark_list_seen"),
    "list_new_ids": ("follows", "list_new_ids"),
    "follow_data": ("follows", "data"),
    "put_follow_data": ("follows", "put_data"),
}
PARTS = {part for part, _ in RENAMES.values()}
# old names that are also the name of a part: rewritten only where called, so that a
# rewritten `store.marks.rows()` is not rewritten again
CALLED_ONLY = PARTS & RENAMES.keys()
# each part's class, where its methods are defined
PART_CLASSES = {
    f"paperatlas.store.{module}.{cls}": part
    for part, (module, cls) in {
        "papers": ("papers", "PaperRows"),
        "lists": ("lists", "ListRows"),
        "dedup": ("dedup", "DedupRows"),
        "fts": ("fts", "FullText"),
        "facts": ("facts", "FactRows"),
        "vectors": ("vectors", "VectorRows"),
        "maps": ("maps", "MapRows"),
        "marks": ("marks", "MarkRows"),
        "kept": ("kept", "KeptRows"),
        "llm": ("llm", "LlmRows"),
        "follows": ("follows", "FollowRows"),
    }.items()
}
# old names that change and are no everyday word: worth a look where a string holds one
SPELT_OUT = {old for old, (_, new) in RENAMES.items() if old != new and "_" in old}
STORE_CLASS = "paperatlas.store.database.Store"
# receivers mypy cannot type (untyped parameters: pytest fixtures) that are stores all the same
UNTYPED_RECEIVERS = re.compile(r"^(?:store|st|.+\.store|self\.st|self\._store)$")
SRC = Path(__file__).resolve().parent.parent / "src"  # the project whose Store is meant
CODE_DIRS = ("src/paperatlas", "tests", "benchmarks", "scripts", "research")
TEXT_FILES = ("README.md", "docs")
HISTORY = ("docs/benchmarks.md", "docs/bench/")  # what was measured, under the names it had then
# `Store.name` or `store.name` in prose (self.store.name, atlas.store.name too)
PROSE = re.compile(r"\b([Ss]tore)\.(" + "|".join(sorted(RENAMES, key=len, reverse=True)) + r")\b(\(?)")


def prose_rewrite(text: str) -> str:
    """`Store.vector_state` -> `Store.vectors.state` in text that is not code."""

    def one(match: re.Match[str]) -> str:
        store, old, call = match.groups()
        if old in CALLED_ONLY and not call:
            return match.group(0)
        part, new = RENAMES[old]
        return f"{store}.{part}.{new}{call}"

    return PROSE.sub(one, text)


# -- finding the Stores: mypy's types --------------------------------------------------------


# a script importing a sibling folder's module by its dotted name (`from tests.conftest import`)
DOTTED_IMPORT = re.compile(r"^\s*(?:from|import) (?:tests|benchmarks|scripts|research)\.", re.M)


def module_groups(files: list[Path]) -> list[list[Path]]:
    """The files split into mypy builds. tests/, benchmarks/ and scripts/ are folders of
    scripts, not packages, and mypy refuses two top-level modules of one name in a build, and
    one file under two names: tests import conftest.py as `conftest` and as `tests.conftest`.
    So a conftest.py builds alone, and the files that import by dotted name build apart."""
    alone = [[path] for path in files if path.name == "conftest.py"]
    rest = [path for path in files if path.name != "conftest.py"]
    dotted = [path for path in rest if DOTTED_IMPORT.search(path.read_text(encoding="utf-8"))]
    return _unique_names([p for p in rest if p not in dotted]) + _unique_names(dotted) + alone


def _unique_names(files: list[Path]) -> list[list[Path]]:
    """`files` in groups where no two top-level modules share a name (src/'s are packages)."""
    groups: list[tuple[set[str], list[Path]]] = []
    for path in files:
        key = str(path) if path.is_relative_to("src") else path.stem
        for names, group in groups:
            if key not in names:
                names.add(key)
                group.append(path)
                break
        else:
            groups.append(({key}, [path]))
    return [group for _, group in groups]


class Edits:
    """Replacements by (line, byte column) in each file, applied from the end."""

    def __init__(self) -> None:
        self.by_file: dict[Path, dict[tuple[int, int, int], str]] = defaultdict(dict)
        self.unsure: list[str] = []

    def replace(self, path: Path, line: int, start: int, end: int, text: str) -> None:
        self.by_file[path][(line, start, end)] = text

    def apply(self, path: Path, source: str) -> str:
        lines = source.splitlines(keepends=True)
        for (line, start, end), text in sorted(self.by_file.get(path, {}).items(), reverse=True):
            raw = lines[line - 1].encode()
            lines[line - 1] = (raw[:start] + text.encode() + raw[end:]).decode()
        return "".join(lines)


def find_store_uses(files: list[Path], edits: Edits) -> None:
    """Record the rewrite of every old name used on a Store in `files` (mypy types them)."""
    # Third-party packages are left out (--no-site-packages: their types are Any): only the
    # project's own types say what is a Store, and reading numpy's and torch's costs minutes.
    # One cache for the run: the builds after the first read src/ from it.
    with tempfile.TemporaryDirectory() as cache:
        for group in module_groups(files):
            _, options = process_options(
                [
                    "--check-untyped-defs",
                    "--ignore-missing-imports",
                    "--no-site-packages",
                    "--cache-dir",
                    cache,
                ]
            )
            options.mypy_path = [str(SRC)]
            options.export_types = True
            options.preserve_asts = True
            result = build.build(create_source_list([str(p) for p in group], options), options)
            wanted = {p.resolve(): p for p in group}
            for state in result.graph.values():
                path = Path(state.xpath).resolve()
                if path in wanted and state.tree is not None:
                    lines = path.read_text(encoding="utf-8").splitlines()
                    _StoreUses(result.types, wanted[path], lines, edits).run(state.tree)


def _is_store(typ: Type | None) -> bool | None:
    """True: a Store (or Store | None); False: something else; None: mypy cannot tell."""
    if typ is None:
        return None
    proper = get_proper_type(typ)
    if isinstance(proper, AnyType):
        return None
    if isinstance(proper, Instance):
        return proper.type.has_base(STORE_CLASS)
    if isinstance(proper, UnionType):
        kept = [t for t in proper.items if not isinstance(get_proper_type(t), NoneType)]
        return bool(kept) and all(_is_store(t) for t in kept)
    return False


def _part_of(typ: Type | None) -> str | None:
    """The part (`vectors`) whose class `typ` is, None for anything else."""
    proper = get_proper_type(typ) if typ is not None else None
    if not isinstance(proper, Instance):
        return None
    return next((part for cls, part in PART_CLASSES.items() if proper.type.has_base(cls)), None)


def _instance_of_type(expr: Expression) -> Expression:
    """`store` for `type(store)` (a method read from or patched on a store's class), else `expr`."""
    if not isinstance(expr, CallExpr) or len(expr.args) != 1:
        return expr
    callee = expr.callee
    return expr.args[0] if isinstance(callee, NameExpr) and callee.name == "type" else expr


class _StoreUses:
    """The old names used on Stores in one module's tree (mypy's visitors are compiled, so
    not subclassed here: a plain class goes through the list of the module's expressions)."""

    def __init__(self, types: dict[Expression, Type], path: Path, lines: list[str], edits: Edits) -> None:
        self.types, self.path, self.lines, self.edits = types, path, lines, edits
        self.callees: set[int] = set()
        self.rewritten: set[int] = set()  # the strings call() rewrote

    def run(self, tree: MypyFile) -> None:
        expressions = get_subexpressions(tree)
        self.callees = {id(e.callee) for e in expressions if isinstance(e, CallExpr)}
        for expr in expressions:
            if isinstance(expr, CallExpr):
                self.call(expr)
            elif isinstance(expr, MemberExpr):
                self.member(expr)
        for expr in expressions:  # a name in a string, given to a helper of a test's own
            if isinstance(expr, StrExpr) and expr.value in SPELT_OUT and id(expr) not in self.rewritten:
                self.edits.unsure.append(f"{self.path}:{expr.line}: the string {expr.value!r}: by hand?")

    def text(self, node: Expression) -> str:
        """The source text of an expression that stands on one line ('' if it does not)."""
        if node.end_line != node.line or node.end_column is None:
            return ""
        raw = self.lines[node.line - 1].encode()
        return raw[node.column : node.end_column].decode(errors="replace")

    def is_store(self, expr: Expression) -> bool | None:
        known = _is_store(self.types.get(expr))
        if known is None and UNTYPED_RECEIVERS.match(self.text(expr)):
            return True
        return known

    def on_class(self, expr: Expression, old: str) -> bool:
        """Whether `expr` is the class Store itself (its methods are on the parts' classes
        now: a person picks the class)."""
        if isinstance(expr, NameExpr) and expr.fullname == STORE_CLASS:
            self.edits.unsure.append(f"{self.path}:{expr.line}: {old!r} on the class Store: by hand")
            return True
        return False

    def call(self, call: CallExpr) -> None:
        """setattr(store, "get_vectors", f) -> setattr(store.vectors, "get", f), and so for
        getattr, hasattr, delattr and `type(store)`."""
        callee = call.callee
        name = callee.name if isinstance(callee, (NameExpr, MemberExpr)) else ""
        if name not in ("setattr", "getattr", "hasattr", "delattr") or len(call.args) < 2:
            return
        target, attr = call.args[0], call.args[1]
        if not isinstance(attr, StrExpr) or attr.value not in RENAMES or self.on_class(target, attr.value):
            return
        holder = _instance_of_type(target)
        quoted = self.text(attr)
        if not self.is_store(holder) or holder.end_line is None or holder.end_column is None or not quoted:
            return
        part, new = RENAMES[attr.value]
        self.rewritten.add(id(attr))
        self.edits.replace(self.path, holder.end_line, holder.end_column, holder.end_column, f".{part}")
        start = attr.column
        self.edits.replace(
            self.path, attr.line, start, start + len(quoted.encode()), quoted.replace(attr.value, new)
        )

    def member(self, member: MemberExpr) -> None:
        """store.get_vectors -> store.vectors.get; on a part, vectors.vector_dim -> vectors.dim"""
        old = member.name
        if old not in RENAMES or (old in CALLED_ONLY and id(member) not in self.callees):
            return
        if self.on_class(member.expr, old):
            return
        where = f"{self.path}:{member.line}"
        part, new = RENAMES[old]
        on_part = _part_of(self.types.get(member.expr))
        if on_part is not None:  # code of a part written when it was a mixin: self.count_papers()
            if on_part != part:
                self.edits.unsure.append(
                    f"{where}: {old} on store.{on_part}, but it is store.{part}'s: by hand"
                )
            elif new != old:
                self.rename(member, new)
            return
        holder = _instance_of_type(member.expr)
        is_store = self.is_store(holder)
        if is_store is None:
            self.edits.unsure.append(f"{where}: {self.text(member) or old} (receiver's type unknown): left")
        if not is_store:
            return
        if holder is member.expr:
            self.rename(member, f"{part}.{new}")
        elif holder.end_line is not None and holder.end_column is not None and self.rename(member, new):
            # type(store).vector_state -> type(store.vectors).state
            self.edits.replace(self.path, holder.end_line, holder.end_column, holder.end_column, f".{part}")

    def rename(self, member: MemberExpr, text: str) -> bool:
        """Put `text` where the attribute's name stands (the end of the expression)."""
        line, end, old = member.end_line, member.end_column, member.name
        raw = self.lines[line - 1].encode() if line is not None and end is not None else b""
        start = (end or 0) - len(old)
        if line is None or raw[start:end].decode(errors="replace") != old:
            self.edits.unsure.append(
                f"{self.path}:{member.line}: {old} not found where mypy puts it: by hand"
            )
            return False
        self.edits.replace(self.path, line, start, start + len(old), text)
        return True


# -- prose: comments, strings, Markdown -------------------------------------------------------


def rewrite_python_prose(source: str) -> str:
    """prose_rewrite applied to the comments and string literals of Python source."""
    pieces: list[tuple[tuple[int, int], tuple[int, int], str]] = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return source
    for tok in tokens:
        if tok.type in (tokenize.COMMENT, tokenize.STRING):
            new = prose_rewrite(tok.string)
            if new != tok.string:
                pieces.append((tok.start, tok.end, new))
    if not pieces:
        return source
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    out = source
    for (sl, sc), (el, ec), new in reversed(pieces):
        out = out[: offsets[sl - 1] + sc] + new + out[offsets[el - 1] + ec :]
    return out


def python_files(root: Path, dirs: Iterable[str]) -> list[Path]:
    files: list[Path] = []
    for name in dirs:
        base = root / name  # a path outside the repository is kept as it is given
        found = (
            [base]
            if base.is_file()
            else sorted(p for p in base.rglob("*.py") if "__pycache__" not in p.parts)
        )
        files += [p.relative_to(root) if p.is_relative_to(root) else p for p in found]
    return files


def text_files(root: Path) -> list[Path]:
    found: list[Path] = []
    for name in TEXT_FILES:
        base = root / name
        found += [base] if base.is_file() else sorted(base.rglob("*.md"))
    return [p.relative_to(root) for p in found if not p.relative_to(root).as_posix().startswith(HISTORY)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "paths", nargs="*", help=f"folders or files of Python (default: {' '.join(CODE_DIRS)})"
    )
    parser.add_argument("--check", action="store_true", help="list what would change; change nothing")
    args = parser.parse_args(argv)
    root = Path.cwd()
    this = Path(__file__).resolve()  # its table and examples name the old names on purpose
    code = [p for p in python_files(root, args.paths or CODE_DIRS) if p.resolve() != this]
    edits = Edits()
    find_store_uses(code, edits)
    changed: list[Path] = []
    for path in code:
        before = path.read_text(encoding="utf-8")
        after = rewrite_python_prose(edits.apply(path, before))
        if after != before:
            changed.append(path)
            print(f"{path}: {len(edits.by_file.get(path, {}))} code edits")
            if not args.check:
                path.write_text(after, encoding="utf-8")
    for path in [] if args.paths else text_files(root):
        before = path.read_text(encoding="utf-8")
        after = prose_rewrite(before)
        if after != before:
            changed.append(path)
            print(f"{path}: prose")
            if not args.check:
                path.write_text(after, encoding="utf-8")
    python = [str(p) for p in changed if p.suffix == ".py"]
    if python and not args.check:  # a call made longer or shorter may need its lines rewrapped
        subprocess.run([sys.executable, "-m", "ruff", "format", "--quiet", *python], check=True)
    for line in edits.unsure:
        print(f"look at {line}", file=sys.stderr)
    print(f"{len(changed)} files {'to change' if args.check else 'changed'}", file=sys.stderr)
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
