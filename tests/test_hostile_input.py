"""Files, folders and fields written to harm: a folder that links out of itself, titles that
drive the terminal, gzip bombs and giant fields, nesting and bytes that break decoders, records
that hold nothing. Each ends as a paper stored safely, a skip counted with its reason, or one
line naming the file (exit 2) — never a traceback, a secret read, or a terminal taken over."""

from __future__ import annotations

import csv
import gzip
import json
import os
import sys
from pathlib import Path

import pytest

from conftest import dump
from paperatlas import Atlas
from paperatlas.errors import InputError
from paperatlas.store import Store

PAPER = {"title": "Graph networks for molecules", "abstract": "We study graph networks for molecules."}
# What a terminal acts on: window title (OSC 0), clear screen (CSI), an OSC-8 link, the 8-bit
# CSI, a bell, a right-to-left override, DEL and rich's own markup.
HOSTILE_TITLE = (
    "Evil \x1b]0;owned\x07 title \x1b[2J [bold red]loud[/bold red] [/nope] "
    "\x1b]8;;http://evil.example\x1b\\click\x1b]8;;\x1b\\ \x9b31m \u202egnirts\x7f end"
)
TERMINAL_ACTS_ON = ("\x1b", "\x9b", "\x07", "\u202e", "\x7f")
# C0 but tab, newline (and a CSV's CR line ends), DEL, C1, the bidi embeddings, overrides and isolates
CONTROLS_AND_BIDI = frozenset(
    [chr(c) for c in (*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0))]
    + list("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
)


def write_jsonl(path: Path, *records: object) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def stored(db: Path) -> list[dict]:
    with Atlas(db) as atlas:
        return atlas.papers()


def one_error_line(err: str, name: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and name in lines[0], err
    assert "Traceback" not in err


# --- folders never leave themselves ------------------------------------------------------


def test_folder_skips_links_leading_out_and_special_files_but_reads_a_named_link(cli, tmp_path):
    secret = tmp_path / "secret" / "credentials"
    secret.parent.mkdir()
    secret.write_text(
        "The access key of this account is AKIAEXAMPLESECRETKEY0123456789 and it is never to be shared.\n"
    )
    write_jsonl(tmp_path / "secret" / "more.jsonl", {**PAPER, "title": "Secret folder paper"})
    folder = tmp_path / "lists"
    folder.mkdir()
    write_jsonl(folder / "papers.jsonl", PAPER)
    (folder / "notes.md").symlink_to(secret)
    (folder / "elsewhere").symlink_to(secret.parent, target_is_directory=True)
    os.mkfifo(folder / "pipe.txt")  # opened, it would wait forever for a writer

    code, out, err = cli("add", folder, "--no-enrich")

    assert code == 0, err
    assert [p["title"] for p in stored(cli.db)] == [PAPER["title"]]
    assert "AKIA" not in out + err
    assert "2 link leading outside the folder" in out and "notes.md" in out and "elsewhere" in out
    assert "pipe.txt" in out
    # named on the command line, a link is the user's choice: it is read
    code, out, err = cli("add", folder / "notes.md", "--no-enrich")
    assert code == 0, err
    assert any("AKIA" in p["abstract"] for p in stored(cli.db))


def test_a_file_name_that_is_not_utf8_neither_crashes_nor_empties_its_folder(cli, tmp_path):
    folder = tmp_path / "lists"
    folder.mkdir()
    write_jsonl(folder / "good.jsonl", PAPER)
    odd = os.fsencode(folder) + b"/odd\xff\x1b[2J.jsonl"
    with open(odd, "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"title": "Odd name paper", "abstract": "We study odd names of files."}) + "\n")

    code, out, err = cli("add", folder, "--no-enrich")

    assert code == 0, err
    assert sorted(p["title"] for p in stored(cli.db)) == [PAPER["title"], "Odd name paper"]
    assert "odd\\xff" in out and "\x1b" not in out
    code, out, err = cli("add", os.fsdecode(odd), "--no-enrich")  # alone: its list is named too
    assert code == 0, err
    with Atlas(cli.db) as atlas:
        assert "odd\\xff" in atlas.lists()  # stored as text, without the escape


def test_an_option_value_that_is_not_utf8_is_one_line(cli, tmp_path):
    path = write_jsonl(tmp_path / "a.jsonl", PAPER)
    code, out, err = cli("add", path, "--list", os.fsdecode(b"\xff"), "--no-enrich")
    assert code == 2
    assert err.strip() == "error: argument '\\xff' is not valid UTF-8 text"


@pytest.mark.parametrize("gz", [False, True], ids=["jsonl", "jsonl.gz"])
def test_a_file_growing_while_it_is_read_is_read_as_it_was_opened(tmp_path, gz):
    """Lines appended while a file is read (a log being written, a hostile writer as fast as the
    reader) are not read: the reading ends at the size the file had when opened."""
    from paperatlas.sources import read

    records = [
        json.dumps({**PAPER, "id": f"p{i}", "title": f"Graph networks part {i}"}) + "\n" for i in range(3)
    ]
    path = tmp_path / ("grow.jsonl.gz" if gz else "grow.jsonl")
    path.write_bytes(gzip.compress("".join(records).encode()) if gz else "".join(records).encode())
    papers = read(path)
    first = next(papers)
    more = "".join(
        json.dumps({**PAPER, "id": f"q{i}", "title": f"Appended {i}"}) + "\n" for i in range(20_000)
    )
    with open(path, "ab") as fh:  # (a second gzip member, for the .gz)
        fh.write(gzip.compress(more.encode()) if gz else more.encode())
    titles = [first.title] + [p.title for p in papers]
    assert titles == [f"Graph networks part {i}" for i in range(3)]


# --- nothing a terminal acts on reaches it ------------------------------------------------


@pytest.mark.slow  # reads or writes thousands of records
def test_hostile_titles_never_reach_the_terminal(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("PAPERATLAS_WORKERS", "1")
    path = write_jsonl(
        tmp_path / "evil\x1b]0;file\x07.jsonl",
        {
            "id": "evil1",
            "title": HOSTILE_TITLE,
            "abstract": "We study graph networks \x1b[31min red\x1b[0m \x9b2J.",
        },
        {"id": "calm1", **PAPER},
    )
    outputs = {}
    for args in (
        ("inspect", path),
        ("add", path),
        ("ls",),
        ("show", "evil1"),
        ("search", "graph networks"),
        ("search", "graph networks", "--json"),
        ("embed",),
        ("similar", "calm1"),
        ("stats",),
    ):
        code, out, err = cli(*args, use_db=args[0] != "inspect")
        assert code == 0, (args, err)
        outputs[args] = out + err
    for args, text in outputs.items():
        assert not any(c in text for c in TERMINAL_ACTS_ON), (args, text)
    assert "[bold red]loud[/bold red] [/nope]" in outputs[("show", "evil1")]  # markup stays text
    found = json.loads(outputs[("search", "graph networks", "--json")])
    assert any(
        "gnirts" in json.dumps(hit, ensure_ascii=False) for hit in found["hits"]
    )  # stored without U+202E


# the characters a viewer acts on, in every spelling a reader can hand over
STORED_HOSTILE = {
    "id": "evil2",
    "title": HOSTILE_TITLE,
    "abstract": "We study graph networks\r for\u0000 molecules \x1b[31min red\x1b[0m \u2066isolated\u2069.",
    "authors": ["Ada \x1b]0;x\x07Lovelace", "Alan\u202e Turing"],
    "keywords": ["graphs\x9b2J"],
    "venue": "ICLR\x1b[2J 2026",
    "tldr": "Short \x1b]8;;http://evil.example\x07link\u202e.",
    "reviews": [{"text": "Fine \u2067paper\x85"}],
}


@pytest.mark.parametrize("reader", ["jsonl", "csv", "bibtex", "markdown"])
def test_stored_text_and_every_file_made_from_it_hold_no_controls(cli, tmp_path, reader):
    """Control characters, escape sequences and bidi controls are taken out as a paper is read,
    so no export (written to a file: no terminal strips it) carries them to a viewer."""
    record = STORED_HOSTILE
    abstract = record["abstract"].replace("\u0000", "")  # (a NUL byte makes a text file binary)
    if reader == "jsonl":
        path = write_jsonl(tmp_path / "evil\x1b[2J.jsonl", record, {"id": "calm1", **PAPER})
    elif reader == "csv":
        path = tmp_path / "evil.csv"
        with open(path, "w", encoding="utf-8", newline="") as fh:
            writer = csv.writer(fh)
            writer.writerow(["title", "abstract", "authors"])
            writer.writerow([record["title"], abstract, "; ".join(record["authors"])])
            writer.writerow([PAPER["title"], PAPER["abstract"], "A B"])
    elif reader == "bibtex":
        path = tmp_path / "evil.bib"
        path.write_text(
            f"@article{{evil2,\n  title = {{{record['title']}}},\n  abstract = {{{abstract}}},\n"
            f"  author = {{{' and '.join(record['authors'])}}},\n  year = {{2026}}\n}}\n",
            encoding="utf-8",
        )
    else:
        path = tmp_path / "evil.md"
        path.write_text(
            f"# Papers\n\n## {record['title']}\n\n{record['authors'][0]}\n\n{abstract}\n\n"
            f"## {PAPER['title']}\n\nAda Lovelace\n\n{PAPER['abstract']}\n",
            encoding="utf-8",
        )
    code, out, err = cli("add", path, "--no-enrich")
    assert code == 0, err
    papers = stored(cli.db)
    evil = next(p for p in papers if "gnirts" in (p["title"] or ""))
    assert evil["title"].startswith("Evil  title") and "[bold red]loud[/bold red]" in evil["title"]
    assert "red" in evil["abstract"] and "isolated" in evil["abstract"]
    with Atlas(cli.db) as atlas:
        assert not any(c in name for name in atlas.lists() for c in "\x1b\u202e")
    files = {}
    for fmt in ("jsonl", "csv", "bibtex", "ris", "csl-json", "markdown"):
        files[fmt] = tmp_path / f"out.{fmt}"
        assert cli("export", "--format", fmt, "-o", files[fmt])[0] == 0
    for fmt in ("md", "html"):
        files[f"digest-{fmt}"] = tmp_path / f"digest.{fmt}"
        assert cli("digest", "--format", fmt, "-o", files[f"digest-{fmt}"])[0] == 0
    for name, file in files.items():
        text = file.read_text(encoding="utf-8")
        assert "gnirts" in text, name
        unsafe = [c for c in text if c in CONTROLS_AND_BIDI]
        assert not unsafe, (name, unsafe)


PUBLICATIONS = (
    "<html><body><ul>"
    + "".join(
        f'<li class="pub"><b>Graph Networks For Molecules Part {i}</b> by Ada Lovelace</li>' for i in range(6)
    )
    + "</ul></body></html>"
)


@pytest.mark.parametrize(
    "records",
    [" ", ".", "li.", "*", "li li", "(a+)+$", "li.pub.x", "li\x1b]0;owned\x07", "a" * 100_000, "é.ü"],
    ids=[
        "space",
        "dot",
        "trailing-dot",
        "star",
        "descendant",
        "regex",
        "two-classes",
        "escape",
        "huge",
        "unicode-tag",
    ],
)
def test_records_that_name_no_kind_of_record_are_one_line(cli, tmp_path, records):
    """`--records` is a kind of record or an HTML tag.class; anything else (a CSS or regex
    pattern, an escape sequence, 100,000 characters) was taken as a tag that matched nothing
    (inspect: 0 papers, exit 0) or as every element (`.`)."""
    path = tmp_path / "pubs.html"
    path.write_text(PUBLICATIONS, encoding="utf-8")
    for command in ("inspect", "add"):
        code, out, err = cli(command, path, "--records", records, use_db=command == "add")
        assert code == 2, (command, out, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: --records ") and "\x1b" not in err, err
        assert len(err) < 300
    assert not cli.db.exists() or stored(cli.db) == []


@pytest.mark.parametrize("records", ["h3", "div.paper", "h7", "custom-element"])
def test_records_that_match_nothing_are_one_line_naming_the_file(cli, tmp_path, records):
    path = tmp_path / "pubs.html"
    path.write_text(PUBLICATIONS, encoding="utf-8")
    for command in ("inspect", "add"):
        code, out, err = cli(command, path, "--records", records, use_db=command == "add")
        assert code == 2, (command, out, err)
        one_error_line(err, "pubs.html")
        assert f"no papers found in it as --records {records}" in err
    code, out, err = cli("inspect", path, "--records", "li.pub", use_db=False)
    assert code == 0 and "Graph Networks For Molecules Part 5" in out, err


def test_error_lines_quoting_a_file_strip_its_controls(cli, tmp_path):
    path = tmp_path / "bad\x1b]0;owned\x07\u202e.json"
    path.write_text('{"title": "x", "abstract": ', encoding="utf-8")
    code, out, err = cli("add", path)
    assert code == 2
    assert not any(c in err for c in TERMINAL_ACTS_ON), err
    assert "bad" in err


def test_a_file_or_list_name_shows_as_one_line_and_the_rest_of_its_line_stays(cli, tmp_path):
    folder = tmp_path / "lists"
    folder.mkdir()
    write_jsonl(folder / "nl\nAdded 999 papers.jsonl", PAPER)
    write_jsonl(folder / "esc\x1b]0;owned\x07.jsonl", PAPER)
    code, out, err = cli("add", folder, "--no-enrich")
    assert code == 0, err
    assert not any(line.startswith("Added 999") for line in out.splitlines()), out
    assert "nl\\nAdded 999 papers.jsonl (jsonl): 1 paper" in out
    assert "esc.jsonl (jsonl): 1 paper" in out  # an OSC whose BEL rich drops swallows no more
    assert not any(c in out + err for c in TERMINAL_ACTS_ON), out

    code, out, err = cli(
        "add", folder / "esc\x1b]0;owned\x07.jsonl", "--list", "L\x1b]0;x\x07\nfake\u202e line"
    )
    assert code == 0, err
    with Atlas(cli.db) as atlas:
        assert sorted(atlas.lists()) == ["L fake line", "lists"]  # stored as one line of text
    assert "-> list 'L fake line'" in out

    code, out, err = cli("add", tmp_path / "gone\x1b]0;owned\x07\nAdded.jsonl")
    assert code == 2
    one_error_line(err, "gone\\nAdded.jsonl: no such file")


@pytest.mark.parametrize("number", ["99999999999999999999", "9223372036854775808"])
def test_a_number_past_sqlite_integers_is_one_line_or_a_usage_error(cli, tmp_path, number):
    cli("add", write_jsonl(tmp_path / "a.jsonl", PAPER), "--no-enrich")
    code, out, err = cli("follow", "rm", number)
    assert code == 2
    one_error_line(err, f"no follow {number}")
    code, out, err = cli("ls", "--limit", number)
    assert code == 2 and "Traceback" not in err and "--limit" in err, err


# --- limits: bombs and giant fields ------------------------------------------------------


def _gzip(path: Path, *chunks: bytes, lie: bool = False) -> Path:
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb") as fh:
        for chunk in chunks:
            fh.write(chunk)
    if lie:  # the trailer says 1 KB: only reading finds the bomb
        data = bytearray(path.read_bytes())
        data[-4:] = (1000).to_bytes(4, "little")
        path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("lie", [False, True], ids=["trailer", "lying-trailer"])
def test_a_gzip_bomb_is_refused_without_being_inflated(cli, tmp_path, lie):
    title = b"a" * (24 * 1024 * 1024)
    bomb = _gzip(tmp_path / "bomb.jsonl.gz", b'{"title": "', title, b'", "abstract": "x y"}\n', lie=lie)
    assert bomb.stat().st_size < 100_000
    for command in ("add", "inspect"):
        code, out, err = cli(command, bomb, use_db=command == "add")
        assert code == 2
        one_error_line(err, "bomb.jsonl.gz")
        assert "unzips to more than" in err
    assert not cli.db.exists() or stored(cli.db) == []
    # a list that expands as lists do still reads
    records = (json.dumps({**PAPER, "id": f"p{i}"}).encode() + b"\n" for i in range(50))
    code, out, err = cli("add", _gzip(tmp_path / "ok.jsonl.gz", *records), "--no-enrich")
    assert code == 0, err
    assert len(stored(cli.db)) == 50


@pytest.mark.parametrize("suffix", ["md", "html", "txt", "org"])
def test_a_gzipped_list_written_by_people_unzips_to_no_more_than_a_plain_one(cli, tmp_path, suffix):
    """Within gzip's 20x a 1 MB file unzipped to 20 MB of Markdown, which the record finder and
    the line reader each read whole (10 MB took minutes); a list written by people stops at
    1 MiB unzipped, the size the targets already ask a plain file to bear."""
    item = {
        "md": "- [Graph networks part {i}](http://x.org/{i}) by Ada Lovelace\n",
        "html": "<li><a href='http://x.org/{i}'>Graph networks part {i}</a> Ada Lovelace</li>\n",
        "txt": "Graph networks part {i}\n\nWe study graphs, part {i}.\n\n",
        "org": "* Graph networks part {i} :paper:\n",
    }[suffix]
    text = "".join(item.format(i=i) for i in range(1024 * 1024 // 20))
    assert len(text) > 1024 * 1024
    path = tmp_path / f"list.{suffix}.gz"
    path.write_bytes(gzip.compress(text.encode()))
    assert path.stat().st_size < 1024 * 1024
    for command in ("inspect", "add"):
        code, out, err = cli(command, path, use_db=command == "add")
        assert code == 2, (command, out, err)
        one_error_line(err, path.name)
        assert "unzips to more than 1 MiB of a list written by people" in err
    assert not cli.db.exists() or stored(cli.db) == []
    small = tmp_path / f"small.{suffix}.gz"
    small.write_bytes(gzip.compress("".join(item.format(i=i) for i in range(5)).encode()))
    code, out, err = cli("inspect", small, use_db=False)
    assert code == 0 and "Graph networks part 4" in out, err


def test_fields_over_their_limits_skip_the_record_with_a_reason(cli, tmp_path):
    path = write_jsonl(
        tmp_path / "big.jsonl",
        {"title": "t " * 30_000, "abstract": "A title far too long."},
        {"title": "Many authors", "abstract": "We study many authors.", "authors": ["A B"] * 10_001},
        {"title": "Long keyword", "abstract": "We study keywords.", "keywords": ["k" * 30_000]},
        {"title": "Long abstract", "abstract": "word " * 5_000},
        {"title": "Long tldr", "abstract": "We study summaries of papers.", "tldr": "z" * 30_000},
        PAPER,
    )
    code, out, err = cli("add", path, "--no-enrich")
    assert code == 0, err
    papers = {p["title"]: p for p in stored(cli.db)}
    assert set(papers) == {PAPER["title"], "Long tldr"}
    assert "tldr" not in (papers["Long tldr"].get("extra") or {})  # dropped, the paper kept
    assert "4 skipped" in out
    for reason in (
        "title over 2,000 characters",
        "more than 10,000 authors",
        "keywords over 20,000",
        "longer than any abstract",
    ):
        assert reason in out


def test_a_line_over_the_record_limit_is_skipped_unread(cli, tmp_path):
    path = tmp_path / "line.jsonl"  # (the first line tells JSON Lines from a JSON document)
    path.write_text(
        json.dumps(PAPER) + "\n" + json.dumps({"title": "Huge", "abstract": "w " * 600_000}) + "\n",
        encoding="utf-8",
    )
    code, out, err = cli("add", path, "--no-enrich")
    assert code == 0, err
    assert [p["title"] for p in stored(cli.db)] == [PAPER["title"]]
    assert "record over 1 MiB" in out


def test_a_csv_field_over_the_record_limit_is_one_line(cli, tmp_path):
    path = tmp_path / "cell.csv"
    path.write_text('title,abstract\n"A title","' + "line of words\n" * 90_000 + '"\n', encoding="utf-8")
    code, out, err = cli("add", path)
    assert code == 2
    one_error_line(err, "cell.csv")
    assert "a field over 1 MiB" in err


def test_a_yaml_alias_bomb_in_front_matter_is_not_expanded(tmp_path):
    lines = ["---", 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcde", "bcdef"):
        lines.append(f"{name}: &{name} [{', '.join([f'*{prev}'] * 9)}]")
    lines += [
        "title: A post",
        "keywords: *f",
        "---",
        "We study graph neural networks for molecules in depth.",
    ]
    path = tmp_path / "post.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # front matter with aliases is read as no front matter (never expanded): no paper is left
    with pytest.raises(InputError, match="no papers found in it"):
        Atlas.inspect(path)


def test_a_yaml_list_alias_bomb_is_one_line_not_expanded(cli, tmp_path):
    """640 bytes of nine aliases of nine, as a YAML list of papers (not front matter): its
    keywords were expanded to 387 million values (past 500 MB and 60 s)."""
    lines = ["- title: A paper", '  keywords: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines += [f"- title: Paper {name}", f"  keywords: &{name} [{', '.join([f'*{prev}'] * 9)}]"]
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for command in ("inspect", "add"):
        code, out, err = cli(command, path, use_db=command == "add")
        assert code == 2, (command, out, err)
        one_error_line(err, "bomb.yaml:4")
        assert "YAML aliases" in err
    assert not cli.db.exists() or stored(cli.db) == []


# --- decoders and recursion end in one line -----------------------------------------------


@pytest.mark.parametrize(
    "name, text",
    [
        ("deep.json", "[" * 5_000 + "]" * 5_000),
        ("deep.jsonl", '{"title": ' + "[" * 5_000 + "]" * 5_000 + "}\n"),
        ("deep_array.json", '[{"title": "x", "abstract": ' + '{"a": ' * 5_000 + "1" + "}" * 5_000 + "}]"),
        ("deep_doc.json", '{"papers": ' + "[" * 5_000 + "]" * 5_000 + "}"),
    ],
)
def test_json_nested_thousands_deep_is_one_line(cli, tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    for command in ("add", "inspect"):
        code, out, err = cli(command, path, use_db=command == "add")
        assert code == 2, (command, out, err)
        one_error_line(err, name)


def test_html_nested_tens_of_thousands_deep_reads_its_papers(cli, tmp_path):
    """Tags nested far deeper than any page: the blocks past the tree's depth limit join the
    block above them, so the page reads (its paper found) with no traceback."""
    path = tmp_path / "deep.html"
    title = "<li><b>Deep Nesting Is Read Without Recursion</b></li>"
    path.write_text("<html><body><ul>" + title + "</ul>" + "<div>" * 20_000 + "text" + "</body></html>")
    code, out, err = cli("inspect", path, use_db=False)
    assert code == 0, err
    assert "Traceback" not in out + err
    assert "Deep Nesting Is Read Without Recursion" in out


def test_html_tree_stops_nesting_at_its_depth_limit():
    """Past MAX_HTML_DEPTH a block's content joins the deepest block kept: the tree (and every
    walk of it) stays shallow however deep the page nests, and the text is kept."""
    from paperatlas.sources.doctree import MAX_HTML_DEPTH, from_html

    tree = from_html("<div>" * 20_000 + "deep text" + "</div>" * 20_000)
    depth, deepest, level = 0, tree, [tree]
    while level:
        depth += 1
        deepest = level[0]
        level = [c for n in level for c in getattr(n, "children", []) if hasattr(c, "children")]
    assert depth <= MAX_HTML_DEPTH + 2
    assert "deep text" in repr(deepest)


def test_a_marked_section_that_is_not_cdata_is_text():
    """`<![img](x.png)` (an image one `!` too close to a `<`): Python's HTMLParser fails an
    assertion on any `<![` but CDATA; the tree reads it as text."""
    from paperatlas.sources.doctree import from_html

    assert "![img](x.png)" in repr(from_html("<details>\n<![img](x.png) a paper"))


@pytest.mark.parametrize("opening", ["<!--", "<a ", "<a b='", "<![CDATA[", "<?", "</a"])
@pytest.mark.parametrize("reader", ["lines", "tree"])
def test_unclosed_html_openings_are_read_as_text_in_one_pass(monkeypatch, opening, reader):
    """Thousands of `<` that open what never closes: Python's HTMLParser scans from each to the
    end of the page and fails (quadratic: a 1 MB page ran for hours). Each is text: no scan runs
    to the end in vain, and the paper before them is read."""
    from html.parser import HTMLParser

    from paperatlas.sources import doctree, html

    failed = [0]

    def counting(method):
        def scan(self, i, *args):
            end = method(self, i, *args)
            failed[0] += end < 0  # found no end: scanned to the end of the page for nothing
            return end

        return scan

    for name in ("parse_comment", "check_for_whole_start_tag", "parse_html_declaration", "parse_pi"):
        monkeypatch.setattr(HTMLParser, name, counting(getattr(HTMLParser, name)))
    monkeypatch.setattr(HTMLParser, "parse_endtag", counting(HTMLParser.parse_endtag))
    page = "<html><body><ul><li><b>Graph Networks For Molecules</b></li></ul>\n" + opening * 3_000
    if reader == "lines":
        monkeypatch.setattr(html, "iter_lines", lambda path: enumerate(page.split("\n"), 1))
        text = repr(html.html_lines(Path("page.html")))
    else:
        text = repr(doctree.from_html(page))
    assert "Graph Networks For Molecules" in text
    assert failed[0] == 0


def test_an_html_comment_left_open_is_shown_and_closed_ones_are_not():
    from paperatlas.sources.html import parsable

    assert parsable("a <!-- hidden --> b <!-- open") == "a <!-- hidden --> b &lt;!-- open"
    assert parsable("<b>x</b> <i") == "<b>x</b> &lt;i"
    assert parsable("<![CDATA[x]]> <![CDATA[y") == "<![CDATA[x]]> &lt;![CDATA[y"


def test_rst_longer_than_its_parser_can_hold_is_read_line_by_line(cli, tmp_path):
    """docutils keeps kilobytes per element: a 1 MB reST file of short adornment lines (each a
    section and two messages) took 2 GB. Past MAX_RST_LINES the file is read line by line,
    saying so, and its papers are still read."""
    from paperatlas.sources.doctree import MAX_RST_LINES

    papers = "".join(
        f"Graph Networks For Molecules Part {i}\n{'`' * 36}\n\nWe study graph networks, part {i}.\n\n"
        for i in range(3)
    )
    path = tmp_path / "long.rst"
    path.write_text(papers + "```\n" * MAX_RST_LINES, encoding="utf-8")
    code, out, err = cli("inspect", path, use_db=False)
    assert code == 0, err
    assert f"over {MAX_RST_LINES:,} lines for the record finder: read line by line" in out + err
    assert "We study graph networks, part 2." in out


def test_markdown_longer_than_its_parser_is_worth_is_read_line_by_line(cli, tmp_path, monkeypatch):
    """markdown-it spends 15-20 us a line: 1 MB of 500,000 short lines took 8 s of CPU in the
    tree parser alone. Past MAX_MARKDOWN_LINES (lowered here to keep the test fast) the list is
    read line by line, saying so, and its papers are still read."""
    from paperatlas.sources import doctree

    monkeypatch.setattr(doctree, "MAX_MARKDOWN_LINES", 40)
    papers = "".join(
        f"## Graph Networks For Molecules Part {i}\n\nWe study graph networks for molecules, part {i}.\n\n"
        for i in range(3)
    )
    path = tmp_path / "long.md"
    path.write_text(papers + "a\n" * 40, encoding="utf-8")
    code, out, err = cli("inspect", path, use_db=False)
    assert code == 0, err
    assert "over 40 lines for the record finder: read line by line" in out + err
    assert "We study graph networks for molecules, part 2." in out


def test_a_sheet_of_more_cells_than_a_list_holds_is_one_line(cli, tmp_path, monkeypatch):
    """1 MB of one-digit cells with no header is 500,000 cells, each read by the record finder
    as a line that may be a title: 15 s of CPU. Past MAX_SHEET_CELLS (lowered here) the sheet
    is refused with one line naming the file and its first line; a sheet under it still reads."""
    from paperatlas.sources import sheet

    monkeypatch.setattr(sheet, "MAX_SHEET_CELLS", 60)
    path = tmp_path / "digits.csv"
    path.write_text("".join(f"{i % 10},{i % 7},{i % 3}\n" for i in range(21)), encoding="utf-8")
    code, out, err = cli("inspect", path, use_db=False)
    assert code == 2
    one_error_line(err, "digits.csv:1: a sheet of 63 cells")
    rows = [f"{i},Graph Networks For Molecules Part {i},Ada Lovelace and Alan Turing\n" for i in range(6)]
    (tmp_path / "small.csv").write_text("".join(rows), encoding="utf-8")
    code, out, err = cli("inspect", tmp_path / "small.csv", use_db=False)
    assert code == 0 and "6 papers" in out, out + err


def test_a_list_item_link_is_read_with_or_without_a_title_and_an_open_one_is_text(tmp_path):
    """The item-title pattern takes the address up to a space or `)`, then the link's title:
    the same links as ever, and no split of the address tried for a line of `[a](` never
    closed (quadratic before: 21 s of CPU for 1 MB; `benchmarks/hostile_inputs.py
    --only md-open-links` measures it)."""
    from paperatlas.sources.entries import entries_from_lines

    path = tmp_path / "links.md"
    path.write_text(
        "# Papers\n\n"
        '- [Graph Networks For Molecules](https://arxiv.org/abs/2101.00001 "the paper")\n'
        "- [Sparse Causal Models Of Vision]( https://arxiv.org/abs/2101.00002 )\n"
        "- [Robust Deep Learning Of Graphs](https://arxiv.org/abs/2101.00003)\n"
        "- " + "[a](" * 3_000 + "\n",
        encoding="utf-8",
    )
    raw = list(enumerate(path.read_text(encoding="utf-8").splitlines(), 1))
    papers = {p.title: p.urls for p in entries_from_lines(path, raw) if not p.skip}
    assert papers == {
        "Graph Networks For Molecules": ["https://arxiv.org/abs/2101.00001"],
        "Sparse Causal Models Of Vision": ["https://arxiv.org/abs/2101.00002"],
        "Robust Deep Learning Of Graphs": ["https://arxiv.org/abs/2101.00003"],
    }


def test_a_table_header_is_read_once_however_many_cells_it_has(monkeypatch):
    """A Markdown table 3,000 columns wide: its header was read again for every cell and row
    inside the table (columns x nodes: 100,000 columns ran for hours). Once per table now,
    and the table's papers are still read by its header."""
    from paperatlas.sources import doctree, finder

    reads = []
    columns = finder._columns
    monkeypatch.setattr(finder, "_columns", lambda table: reads.append(table) or columns(table))
    wide = "| Title | Authors |" + " x |" * 3_000 + "\n|---|---|" + "---|" * 3_000 + "\n"
    rows = "".join(f"| Graph Networks For Molecules Part {i} | Ada Lovelace |\n" for i in range(3))
    finding = finder.find(doctree.from_markdown(wide + rows))
    assert len(reads) == 1
    assert [e.title for e in finding.entries] == [f"Graph Networks For Molecules Part {i}" for i in range(3)]


def test_records_taken_are_checked_for_overlap_in_linear_work(monkeypatch):
    """An org file of 30,000 headings ran for minutes: each record was looked for in the list
    of records taken (a comparison of whole nodes per pair) and every heading's body made a
    Markdown parser of its own. Now a set holds what is taken and one parser serves all."""
    import markdown_it

    from paperatlas.sources import doctree, finder

    made, compared = [0], [0]
    init, eq = markdown_it.MarkdownIt.__init__, doctree.Node.__eq__

    def counting_init(self, *args, **kwargs):
        made[0] += 1
        init(self, *args, **kwargs)

    def counting_eq(self, other):
        compared[0] += 1
        return eq(self, other)

    monkeypatch.setattr(markdown_it.MarkdownIt, "__init__", counting_init)
    monkeypatch.setattr(doctree.Node, "__eq__", counting_eq)
    n = 1_500
    text = "".join(f"* Graph networks for molecules part {i} :paper:\n" for i in range(n))
    finding = finder.find(doctree.from_org(text))
    assert len(finding.entries) > 0.9 * n
    assert made[0] <= 1 and compared[0] < n, (made, compared)


def test_an_html_link_in_a_line_ends_at_the_next_link():
    """The link pattern scans no further than the next `<a` (a line of 160,000 `<a b='` was
    scanned to its end from each: 120 s and more): a link left open is text, the next one a link."""
    from paperatlas.sources.mdlines import clean_html

    assert clean_html('<a href="u">open <a href="v">Two</a>') == "open [Two](v)"


def test_json_nested_past_the_record_limit_is_skipped(cli, tmp_path):
    deep = {"title": "Deep", "abstract": "We nest."}
    value: object = 1
    for _ in range(100):
        value = [value]
    deep["extra_field"] = value  # type: ignore[assignment]
    path = write_jsonl(tmp_path / "nest.jsonl", deep, PAPER)
    code, out, err = cli("add", path, "--no-enrich")
    assert code == 0, err
    assert [p["title"] for p in stored(cli.db)] == [PAPER["title"]]
    assert "nested deeper than 32 levels" in out


def test_lone_surrogates_in_json_are_stored_and_printed_as_replacement_characters(cli, tmp_path):
    path = tmp_path / "sur.jsonl"
    path.write_text(
        '{"id": "s1", "title": "Bad \\ud800 title", "abstract": "We study \\udfff graphs.", '
        '"authors": ["A \\udbff B"]}\n',
        encoding="utf-8",
    )
    code, out, err = cli("add", path)
    assert code == 0, err
    (paper,) = stored(cli.db)
    assert paper["title"] == "Bad \ufffd title" and paper["authors"] == ["A \ufffd B"]
    for args in (("ls",), ("show", "s1"), ("stats",)):
        code, out, err = cli(*args)
        assert code == 0, (args, err)


# --- a record that holds nothing is not a paper -------------------------------------------


@pytest.mark.parametrize(
    "name, text",
    [
        ("list.json", "[[]]"),
        ("empty_title.jsonl", '{"title": ""}\n{"title": "   ", "abstract": " ... "}\n'),
        ("punctuation.txt", "...\n\n---  !!\n\n[[]]\n"),
        ("rows.csv", "title,abstract\n  ,  \n-,--\n"),
    ],
)
def test_a_file_of_empty_records_stores_nothing(cli, tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code, out, err = cli("add", path, "--no-enrich")
    assert code == 2, out
    one_error_line(err, name)
    assert not cli.db.exists() or stored(cli.db) == []


@pytest.mark.parametrize(
    "text, kind",
    [
        ('"just a string"', "a string"),
        ("[1, 2, 3]", "a number"),
        ("42", "a number"),
        ("null", "null"),
        ('\n ["a", "b"]', "a string"),
    ],
)
@pytest.mark.parametrize("gz", [False, True], ids=["json", "json.gz"])
def test_a_json_file_of_no_objects_is_one_line_naming_it(cli, tmp_path, text, kind, gz):
    """A `.json` holding a bare value (or an array of them) is JSON that holds no paper; it was
    read as a plain-text list and gave 0 papers with exit 0."""
    path = tmp_path / ("values.json.gz" if gz else "values.json")
    path.write_bytes(gzip.compress(text.encode()) if gz else text.encode())
    for command in ("inspect", "add"):
        code, out, err = cli(command, path, use_db=command == "add")
        assert code == 2, (command, out, err)
        one_error_line(err, path.name)
        assert f"expected a JSON object per paper, got {kind}" in err
    assert not cli.db.exists() or stored(cli.db) == []


def test_empty_records_beside_papers_are_counted_not_stored(cli, tmp_path):
    path = write_jsonl(tmp_path / "mixed.jsonl", {"title": "", "abstract": "  "}, {"title": "?!"}, PAPER)
    code, out, err = cli("add", path, "--no-enrich")
    assert code == 0, err
    assert [p["title"] for p in stored(cli.db)] == [PAPER["title"]]
    assert "2 no title and no abstract" in out


@pytest.mark.parametrize(
    "args", [("export", "--format", "markdown"), ("export", "--format", "csv"), ("digest",)]
)
def test_documents_written_to_a_terminal_leave_its_controls_out(cli, tmp_path, monkeypatch, args):
    path = write_jsonl(
        tmp_path / "evil.jsonl", {"id": "evil1", "title": HOSTILE_TITLE, **{"abstract": PAPER["abstract"]}}
    )
    assert cli("add", path, "--no-enrich")[0] == 0
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)  # (rich styles only its own consoles)
    code, out, err = cli(*args)
    assert code == 0, err
    assert "gnirts" in out and not any(c in out for c in TERMINAL_ACTS_ON), out


def test_a_refused_hostile_file_leaves_the_atlas_as_it_was(cli, tmp_path):
    assert cli("add", write_jsonl(tmp_path / "good.jsonl", PAPER))[0] == 0
    store = Store(cli.db)
    before = dump(store)
    deep = tmp_path / "deep.json"
    deep.write_text('[{"title": "x", "abstract": ' + "[" * 5_000 + "]" * 5_000 + "}]", encoding="utf-8")
    cell = tmp_path / "cell.csv"
    cell.write_text('title,abstract\n"A title","' + "line of words\n" * 90_000 + '"\n', encoding="utf-8")
    bomb = _gzip(tmp_path / "bomb.jsonl.gz", b'{"title": "', b"a" * (24 * 1024 * 1024), b'"}\n', lie=True)
    for path in (deep, cell, bomb):
        code, out, err = cli("add", path)
        assert code == 2, (path, out, err)
        one_error_line(err, path.name)
        assert dump(store) == before
    store.close()
