"""Benchmark: no hostile input file of at most 1 MB makes `add` or `inspect` use more than 1 GB or
run more than 60 s.

    .venv/bin/python benchmarks/hostile_inputs.py [--base OLD_SRC] [--only NAME,...] [--limit S]
        [--keep DIR]
    .venv/bin/python benchmarks/hostile_inputs.py --read-cpu LIST [--base OLD_SRC]

Writes a set of hostile files of at most 1 MB each (gzip bombs of one giant title, of many
records and of deep nesting; giant CSV cells, lines, BibTeX and RIS fields; Markdown with
100,000 links; deep nesting in JSON, HTML and Markdown; HTML openings never closed; reST of short lines; a Markdown table 160,000 columns wide; a YAML alias bomb, in front matter and
in a YAML list; records sharing a label, 500,000 short lines, quotes and lists nested in turn,
21,000 small tables, 21,000 org headings, CSV fields spanning 2,000 lines, a line of
250,000 links never closed, 500,000 one-digit CSV cells, a line of 980,000 capitals; a gzip of a list of each format as big as
1 MB and gzip's limit allow; long runs of the characters the readers' patterns repeat), then runs `paperatlas add` (facts included) and
`paperatlas inspect` on each in a fresh process, and prints per file and
command: exit code, wall seconds and peak RSS, for this tree and, with --base (the src/ of the
starting code), for that one right after it (same file, same load). A run past --limit seconds
(default 120) is stopped; a cell over 60 s or 1 GB is marked `!`. Each cell also gives the CPU
seconds of the command and its workers.

`--read-cpu LIST` instead times what the limits cost on a real list: the CPU seconds of
reading it with `sources.read`, this tree and the base alternating, three times each.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MB = 1_000_000
TARGET_S, TARGET_RSS_MB = 60, 1024


def _gzip_stream(path: Path, chunks: Iterator[bytes]) -> None:
    """Compress `chunks` into `path` at the highest level (a bomb: small file, huge content)."""
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9) as fh:
        for chunk in chunks:
            fh.write(chunk)


def _repeat(piece: bytes, total: int) -> Iterator[bytes]:
    block = piece * max(1, (1 << 20) // len(piece))
    written = 0
    while written < total:
        yield block
        written += len(block)


def gz_giant_title(path: Path) -> None:
    """One JSONL record whose title is 1 GB of one letter (about 1 MB compressed)."""
    head, tail = b'{"title": "', b'", "abstract": "We study graphs."}\n'
    _gzip_stream(path, iter([head, *_repeat(b"a", 1000 * MB), tail]))


def gz_many_records(path: Path) -> None:
    """The same small record, over and over: 280 MB (deflate's longest match, 258 bytes, bounds
    its ratio for anything but a run of one byte)."""
    record = json.dumps({"title": "A paper", "abstract": "We study graph neural networks."}).encode() + b"\n"
    _gzip_stream(path, _repeat(record, 280 * MB))


def gz_distinct_records(path: Path) -> None:
    """Records that differ (a counter in the title), as many as fit in 1 MB compressed."""
    data = b"".join(json.dumps({"title": f"Paper {i}"}).encode() + b"\n" for i in range(380_000))
    path.write_bytes(gzip.compress(data, 9))


def gz_deep_nesting(path: Path) -> None:
    """A JSON array nested 100 million levels deep."""
    _gzip_stream(path, iter([*_repeat(b"[", 100 * MB), *_repeat(b"]", 100 * MB)]))


def _lying(write: Callable[[Path], None]) -> Callable[[Path], None]:
    """The same bomb with a gzip trailer that lies about the size (only reading finds out)."""

    def lie(path: Path) -> None:
        write(path)
        data = bytearray(path.read_bytes())
        data[-4:] = (1000).to_bytes(4, "little")
        path.write_bytes(bytes(data))

    return lie


def json_deep(path: Path) -> None:
    path.write_text("[" * 400_000 + "]" * 400_000)


def jsonl_deep_object(path: Path) -> None:
    path.write_text('{"title": "Deep", "abstract": ' + '{"a": ' * 100_000 + "1" + "}" * 100_000 + "}\n")


def jsonl_giant_title(path: Path) -> None:
    path.write_text(json.dumps({"title": "a " * 499_000, "abstract": "We study graphs."}) + "\n")


def jsonl_many_small(path: Path) -> None:
    """As many records as fit in 1 MB uncompressed."""
    lines, size, i = [], 0, 0
    while size < MB - 40:
        line = json.dumps({"title": f"T{i}"}) + "\n"
        lines.append(line)
        size, i = size + len(line), i + 1
    path.write_text("".join(lines))


def json_many_authors(path: Path) -> None:
    path.write_text(json.dumps([{"title": "Many authors", "authors": ["A B"] * 140_000}]))


def csv_giant_cell(path: Path) -> None:
    path.write_text('title,abstract\n"A title","' + "word " * 199_000 + '"\n')


def csv_unclosed_quote(path: Path) -> None:
    path.write_text('title,abstract\n"A title","' + "line of text\n" * 76_000)


def text_giant_line(path: Path) -> None:
    path.write_text("word " * 199_000 + "\n")


def text_tiny_blocks(path: Path) -> None:
    path.write_text("".join(f"We study problem number {i} of graphs.\n\n" for i in range(21_000)))


def text_hyphen_blocks(path: Path) -> None:
    """Blocks just under the abstract limit of `a-a-a-...` (a pattern that rejoins words broken
    at a line end once backtracked on every start)."""
    path.write_text(("a-" * 9_500 + "\n\n") * 52)


def md_hyphen_blocks(path: Path) -> None:
    path.write_text("# Papers\n\n" + ("- A title\n\n  " + "a-" * 9_500 + "\n\n") * 52)


def bib_giant_field(path: Path) -> None:
    path.write_text("@article{a,\n  title = {A title},\n  abstract = {" + "word " * 199_000 + "}\n}\n")


def bib_deep_braces(path: Path) -> None:
    path.write_text("@article{a,\n  title = " + "{" * 490_000 + "x" + "}" * 490_000 + "\n}\n")


def ris_giant_field(path: Path) -> None:
    path.write_text("TY  - JOUR\nTI  - A title\nAB  - " + "word " * 199_000 + "\nER  - \n")


def md_many_links(path: Path) -> None:
    path.write_text("# Papers\n\n" + "- [a](b)\n" * 100_000)


def md_one_line_links(path: Path) -> None:
    path.write_text("# Papers\n\n" + "[a](http://x) " * 70_000 + "\n")


def md_deep_quotes(path: Path) -> None:
    path.write_text("# Papers\n\n" + ">" * 900_000 + " text\n")


def md_deep_lists(path: Path) -> None:
    path.write_text("# Papers\n\n" + "".join("  " * i + "- item\n" for i in range(900)))


def html_deep_tags(path: Path) -> None:
    path.write_text("<html><body>" + "<div>" * 140_000 + "text" + "</div>" * 40_000 + "</body></html>")


def html_open_comments(path: Path) -> None:
    """`<!--` never closed, 240,000 times (each once scanned to the end of the page)."""
    path.write_text("<html><body><ul><li><b>A title</b></li></ul>" + "<!--" * 240_000)


def html_open_tags(path: Path) -> None:
    path.write_text("<html><body><ul><li><b>A title</b></li></ul>" + "<a b='" * 160_000)


def md_wide_table(path: Path) -> None:
    """A Markdown table 160,000 columns wide (its header once read for every cell)."""
    path.write_text("| Title |" + " a |" * 160_000 + "\n|---|" + "-|" * 160_000 + "\n| A title |\n")


def rst_short_lines(path: Path) -> None:
    """A line of three backticks, 250,000 times: to docutils, each a section title."""
    path.write_text("```\n" * 250_000)


def yaml_alias_bomb(path: Path) -> None:
    lines = ["---", 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    prev = "a"
    for name in "bcdefghi":
        lines.append(f"{name}: &{name} [{', '.join([f'*{prev}'] * 9)}]")
        prev = name
    lines += ["title: A post", f"keywords: *{prev}", "---", "We study graph neural networks for molecules."]
    path.write_text("\n".join(lines) + "\n")


def _gz_list(item: Callable[[int], str], head: str = "", tail: str = "") -> Callable[[Path], None]:
    """A gzip of a list of distinct items, as many as keep it within 1 MiB and within the gzip
    limit's ratio (20): a list written by people unzipping to 10-20 MB."""

    def write(path: Path) -> None:
        n, best = 1_000, b""
        while True:
            data = (head + "".join(item(i) for i in range(n)) + tail).encode()
            packed = gzip.compress(data, 9)
            if len(packed) > 1_000_000 or len(data) > 19 * len(packed):
                break
            best, n = packed, n * 2
        scale = min(1_000_000 / len(packed), 19 * len(packed) / len(data)) * 0.95
        data = (head + "".join(item(i) for i in range(int(n * scale))) + tail).encode()
        packed = gzip.compress(data, 9)
        path.write_bytes(packed if len(packed) <= 1_000_000 and len(data) <= 19 * len(packed) else best)

    return write


def md_same_label(path: Path) -> None:
    """20,000 records whose every field opens with the same label."""
    item = "- **Title:** Graph networks for molecules part {i}\n  **Authors:** Ada Lovelace\n  **Link:** http://x.org/{i}\n"
    path.write_text("# Papers\n\n" + "".join(item.format(i=i) for i in range(8_000)))


def md_short_lines(path: Path) -> None:
    path.write_text("a\n" * 500_000)


def md_quoted_lists(path: Path) -> None:
    """Blockquotes and list items nested in turn, 100,000 deep on one line."""
    path.write_text("# Papers\n\n" + "> - " * 100_000 + "Graph networks\n")


def md_many_tables(path: Path) -> None:
    path.write_text("".join(f"| Title |\n|---|\n| Graph networks part {i} |\n\n" for i in range(21_000)))


def org_many_headings(path: Path) -> None:
    """21,000 tagged org headings (each record once compared with every record taken, and each
    heading's body given a Markdown parser of its own)."""
    path.write_text("".join(f"* Graph networks for molecules part {i} :paper:\n" for i in range(21_000)))


def csv_many_quoted(path: Path) -> None:
    """Rows whose quoted abstracts span 2,000 lines each."""
    row = '"A title {i}","' + "word\n" * 2_000 + '"\n'
    path.write_text("title,abstract\n" + "".join(row.format(i=i) for i in range(95)))


def yaml_list_alias_bomb(path: Path) -> None:
    lines = ["- title: A paper", '  keywords: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    prev = "a"
    for name in "bcdefghi":
        lines.append(f"- title: Paper {name}")
        lines.append(f"  keywords: &{name} [{', '.join([f'*{prev}'] * 9)}]")
        prev = name
    path.write_text("\n".join(lines) + "\n")


def md_open_links(path: Path) -> None:
    """`[a](` 250,000 times on one line: a link never closed (its address tried at every split)."""
    path.write_text("- " + "[a](" * 250_000 + "\n")


def csv_tiny_cells(path: Path) -> None:
    """50,000 rows of ten one-digit cells and no header: 500,000 cells for the record finder."""
    path.write_text("".join(",".join(str(i % 10) for _ in range(10)) + "\n" for i in range(50_000)))


def md_capital_run(path: Path) -> None:
    """A short list, then one line of 980,000 capitals (to a person-name pattern, given names
    and a surname split every way there is)."""
    items = "".join(f"- Graph networks part {i}, Ada Lovelace, ICLR 2024\n" for i in range(20))
    path.write_text("# Papers\n\n" + items + "\n" + "A" * 980_000 + "\n")


def _runs(piece: str) -> Callable[[Path], None]:
    """A file of one line: `piece` repeated to about 1 MB (catastrophic backtracking probes)."""

    def write(path: Path) -> None:
        path.write_text(piece * (990_000 // len(piece)) + "\n")

    write.__doc__ = f"one line of {piece!r} repeated"
    return write


CASES: dict[str, tuple[str, Callable[[Path], None]]] = {
    "gz-giant-title": ("jsonl.gz", gz_giant_title),
    "gz-many-records": ("jsonl.gz", gz_many_records),
    "gz-distinct-records": ("jsonl.gz", gz_distinct_records),
    "gz-deep-nesting": ("json.gz", gz_deep_nesting),
    "gz-title-lying": ("jsonl.gz", _lying(gz_giant_title)),
    "gz-records-lying": ("jsonl.gz", _lying(gz_many_records)),
    "gz-nesting-lying": ("json.gz", _lying(gz_deep_nesting)),
    "json-deep": ("json", json_deep),
    "jsonl-deep-object": ("jsonl", jsonl_deep_object),
    "jsonl-giant-title": ("jsonl", jsonl_giant_title),
    "jsonl-many-small": ("jsonl", jsonl_many_small),
    "json-many-authors": ("json", json_many_authors),
    "csv-giant-cell": ("csv", csv_giant_cell),
    "csv-unclosed-quote": ("csv", csv_unclosed_quote),
    "text-giant-line": ("txt", text_giant_line),
    "text-tiny-blocks": ("txt", text_tiny_blocks),
    "text-hyphen-blocks": ("txt", text_hyphen_blocks),
    "md-hyphen-blocks": ("md", md_hyphen_blocks),
    "bib-giant-field": ("bib", bib_giant_field),
    "bib-deep-braces": ("bib", bib_deep_braces),
    "ris-giant-field": ("ris", ris_giant_field),
    "md-many-links": ("md", md_many_links),
    "md-one-line-links": ("md", md_one_line_links),
    "md-deep-quotes": ("md", md_deep_quotes),
    "md-deep-lists": ("md", md_deep_lists),
    "html-deep-tags": ("html", html_deep_tags),
    "html-open-comments": ("html", html_open_comments),
    "html-open-tags": ("html", html_open_tags),
    "md-wide-table": ("md", md_wide_table),
    "rst-short-lines": ("rst", rst_short_lines),
    "yaml-alias-bomb": ("md", yaml_alias_bomb),
    "md-same-label": ("md", md_same_label),
    "md-short-lines": ("md", md_short_lines),
    "md-open-links": ("md", md_open_links),
    "csv-tiny-cells": ("csv", csv_tiny_cells),
    "md-capital-run": ("md", md_capital_run),
    "md-quoted-lists": ("md", md_quoted_lists),
    "md-many-tables": ("md", md_many_tables),
    "org-many-headings": ("org", org_many_headings),
    "csv-many-quoted": ("csv", csv_many_quoted),
    "yaml-list-alias-bomb": ("yaml", yaml_list_alias_bomb),
    "gz-md-list": (
        "md.gz",
        _gz_list(
            lambda i: f"- [Graph networks part {i}](http://x.org/{i}) by Ada Lovelace\n", "# Papers\n\n"
        ),
    ),
    "gz-html-list": (
        "html.gz",
        _gz_list(
            lambda i: f"<li><a href='http://x.org/{i}'>Graph networks part {i}</a> Ada Lovelace</li>\n",
            "<ul>",
            "</ul>",
        ),
    ),
    "gz-text-list": (
        "txt.gz",
        _gz_list(lambda i: f"Graph networks part {i}\n\nWe study graphs, part {i}.\n\n"),
    ),
    "gz-org-list": (
        "org.gz",
        _gz_list(lambda i: f"* Graph networks part {i} :paper:\n", "#+TITLE: Papers\n"),
    ),
    "gz-bib-list": (
        "bib.gz",
        _gz_list(lambda i: f"@article{{k{i},\n title = {{Graph networks part {i}}},\n year = {{2024}}\n}}\n"),
    ),
    "gz-ris-list": (
        "ris.gz",
        _gz_list(
            lambda i: (
                f"TY  - JOUR\nTI  - Graph networks part {i}\nAU  - Lovelace, Ada {i}\nDO  - 10.1/{i * 7919}\nER  - \n"
            )
        ),
    ),
    "gz-csv-list": (
        "csv.gz",
        _gz_list(lambda i: f"Graph networks part {i},Ada Lovelace\n", "title,authors\n"),
    ),
    **{
        f"runs-{name}": ("txt", _runs(piece))
        for name, piece in {
            "hyphens": "a-",
            "spaces": " ",
            "dashes": "-",
            "brackets": "[",
            "numbered": "1. ",
            "commas": "a, ",
            "urls": "http://",
            "stars": "*",
            "underscores": "_",
            "angles": "<a ",
            "backslashes": "\\",
            "dollars": "$",
            "braces": "{",
            "ands": "A and ",
            "pipes": "|--",
        }.items()
    },
}


def _peak_rss_mb(pid: int) -> float:
    """The process's peak resident memory so far (VmHWM: its own, from its exec on; wait4's
    ru_maxrss would also count this script's memory, inherited at the fork)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def run(src: Path, args: list[str], limit: float, env: dict[str, str]) -> tuple[str, float, float, float]:
    """(exit code, wall seconds, peak RSS in MB, CPU seconds) of `paperatlas ARGS` on the code in
    `src`; a run past `limit` seconds is killed (its peak RSS up to then still counted). The peak
    is read every 20 ms while it runs (a high-water mark: only the last 20 ms can be missed). The
    CPU is the child's and its workers' (RUSAGE_CHILDREN once it is waited for): on a shared,
    loaded machine the figure to compare, as wall seconds there are several times it."""
    command = [sys.executable, "-c", "import sys; from paperatlas.cli import main; main()", *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            command, env={**env, "PYTHONPATH": str(src)}, stdout=subprocess.DEVNULL, stderr=err
        )
        peak = 0.0
        while proc.poll() is None:
            peak = max(peak, _peak_rss_mb(proc.pid))
            if time.perf_counter() - start > limit:
                proc.kill()
                proc.wait()
                break
            time.sleep(0.02)
        wall = time.perf_counter() - start
        err.seek(0)
        last = (err.read().strip().splitlines() or [""])[-1]
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    code = "kill" if proc.returncode == -9 else str(proc.returncode)
    if proc.returncode not in (0, 2, -9):
        code += "*"  # a crash: its last line of stderr
        print(f"    ({src}: {last[:150]})")
    return code, wall, peak, cpu


_READ_CPU = """
import sys, time
from paperatlas.sources import read
start = time.process_time()
n = sum(1 for _ in read(sys.argv[1]))
print(n, time.process_time() - start)
"""


def read_cpu(trees: list[tuple[str, Path]], data: Path, rounds: int = 3) -> None:
    """CPU seconds of reading a real list with `sources.read` (the limits' cost), each tree in a
    fresh process, alternating, `rounds` times; the best of each."""
    best: dict[str, float] = {}
    for _ in range(rounds):
        for tree, src in trees:
            out = subprocess.run(
                [sys.executable, "-c", _READ_CPU, str(data)],
                env={**os.environ, "PYTHONPATH": str(src)},
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
            best[tree] = min(best.get(tree, float("inf")), float(out[1]))
            print(f"read {data.name} ({out[0]} papers), {tree}: {float(out[1]):.2f} s CPU")
    if "base" in best:
        print(
            f"best of {rounds}: new {best['new']:.2f} s, base {best['base']:.2f} s: {best['new'] / best['base']:.2f}x"
        )


def cell(result: tuple[str, float, float, float]) -> str:
    code, wall, rss, cpu = result
    flag = "!" if wall > TARGET_S or rss > TARGET_RSS_MB or code == "kill" else " "
    return f"{code:>5} {wall:6.1f}s {cpu:5.1f}cpu {rss:5.0f}MB{flag}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", type=Path, help="src/ of the code to compare with")
    parser.add_argument("--only", help="comma-separated case names")
    parser.add_argument("--limit", type=float, default=120.0, help="seconds before a run is stopped")
    parser.add_argument("--keep", type=Path, help="write the files here and keep them")
    parser.add_argument("--read-cpu", type=Path, metavar="LIST", help="only time reading this real list")
    args = parser.parse_args()
    names = args.only.split(",") if args.only else list(CASES)
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "COLUMNS": "120"}
    trees = [("new", REPO / "src")] + ([("base", args.base)] if args.base else [])
    if args.read_cpu:
        read_cpu(trees, args.read_cpu)
        return
    folder = args.keep or Path(tempfile.mkdtemp(prefix="hostile-"))
    folder.mkdir(parents=True, exist_ok=True)
    header = f"{'file':22} {'bytes':>9}  " + "  ".join(
        f"{tree + ' ' + cmd:>29}" for tree, _ in trees for cmd in ("add", "inspect")
    )
    print(header)
    worst = {tree: (0.0, 0.0) for tree, _ in trees}
    killed = {tree: 0 for tree, _ in trees}
    for name in names:
        suffix, write = CASES[name]
        path = folder / f"{name}.{suffix}"
        write(path)
        size = path.stat().st_size
        assert size <= 1024 * 1024, f"{name}: {size} bytes, over 1 MB"
        cells = []
        for tree, src in trees:
            for command in ("add", "inspect"):
                with tempfile.TemporaryDirectory() as tmp:
                    argv = [command, str(path)] + (["--db", f"{tmp}/atlas.db"] if command == "add" else [])
                    result = run(src, argv, args.limit, env)
                cells.append(cell(result))
                worst[tree] = (max(worst[tree][0], result[1]), max(worst[tree][1], result[2]))
                killed[tree] += result[0] == "kill"
        print(f"{name:22} {size:>9,}  " + "  ".join(cells), flush=True)
        if not args.keep:
            path.unlink()
    for tree, (wall, rss) in worst.items():
        ok = wall <= TARGET_S and rss <= TARGET_RSS_MB and not killed[tree]
        print(
            f"{tree}: worst {wall:.1f} s, {rss:.0f} MB peak RSS, {killed[tree]} runs stopped at the limit "
            f"(targets {TARGET_S} s, {TARGET_RSS_MB} MB): " + ("met" if ok else "NOT met")
        )


if __name__ == "__main__":
    main()
