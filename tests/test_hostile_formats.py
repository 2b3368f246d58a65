"""Hostile files of the formats earlier hunts probed least: XML (entity bombs, external
entities naming a local file) and BibTeX macro definitions."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperatlas import Atlas

_RDF_OPEN = (
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
    'xmlns:z="http://www.zotero.org/namespaces/export#" xmlns:bib="http://purl.org/net/biblio#" '
    'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/">\n'
)
# nine levels of ten: 10^9 copies of "lol" once expanded
_LAUGHS = "".join(f'<!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10}">\n' for i in range(1, 10)).replace(
    "&lol0;", "lol"
)


def _rdf(dtd: str, title: str) -> str:
    items = "".join(
        f'<bib:Article rdf:about="#item_{i}"><z:itemType>journalArticle</z:itemType>'
        f"<dc:title>{title} number {i}</dc:title>"
        f"<dcterms:abstract>We study graph networks for molecules {i}.</dcterms:abstract></bib:Article>\n"
        for i in range(5)
    )
    return f'<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [\n{dtd}]>\n{_RDF_OPEN}{items}</rdf:RDF>\n'


def _everything_shown(cli, db: Path, out: str, err: str) -> str:
    if not db.exists():
        return out + err
    with Atlas(db) as atlas:
        return out + err + repr(atlas.papers())


@pytest.mark.parametrize(
    "name, text",
    [
        ("laughs.rdf", _rdf(_LAUGHS, "Graph networks &lol9;")),
        ("secret.rdf", _rdf('<!ENTITY x SYSTEM "file:///etc/hostname">\n', "Graph networks &x;")),
        ("secret.xml", _rdf('<!ENTITY x SYSTEM "file:///etc/hostname">\n', "Graph networks &x;")),
        (
            "endnote.xml",
            '<?xml version="1.0" encoding="UTF-8"?><xml><records><record><titles>'
            "<title>Graph networks for molecules</title></titles></record></records></xml>\n",
        ),
    ],
)
def test_xml_is_never_expanded_nor_read_as_one_paper_of_markup(cli, tmp_path, name, text):
    """Read as plain text, an XML export was stored as one paper titled `<?xml version=...>`;
    whatever reads it must neither expand its entities nor fetch a file one names."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    secret = Path("/etc/hostname").read_text().strip() if Path("/etc/hostname").exists() else None
    for command in ("inspect", "add"):
        code, out, err = cli(command, path, use_db=command == "add")
        assert "Traceback" not in err
        shown = _everything_shown(cli, cli.db, out, err)
        assert "<?xml" not in shown and "lollollol" not in shown
        assert secret is None or secret not in shown.replace(str(tmp_path), "")
        if code != 0:
            assert code == 2
            lines = err.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("error: ") and name in lines[0], err


def test_a_bibtex_file_defining_many_macros_is_read_not_refused(cli, tmp_path):
    """Journal abbreviations as @string (often a hundred) are no records: counted as entries,
    the self-check refused a file of 60 macros and one article as "read as a single paper"."""
    macros = "".join(f'@string{{j{i} = "Journal of Things {i}"}}\n' for i in range(60))
    path = tmp_path / "refs.bib"
    path.write_text(
        '@preamble{"\\newcommand{\\x}{x}"}\n@Comment{jabref-meta: x;}\n'
        + macros
        + "@article{smith2020, title = {Graph networks for molecules}, author = {Smith, Ann},"
        " journal = j7, year = 2020}\n",
        encoding="utf-8",
    )
    code, out, err = cli("add", path, "--no-enrich")
    assert code == 0, err
    with Atlas(cli.db) as atlas:
        papers = atlas.papers()
    assert [p["title"] for p in papers] == ["Graph networks for molecules"]
    assert papers[0]["venue"] == "Journal of Things 7"


def test_a_line_of_capitals_is_counted_in_one_pass_and_names_still_are():
    """The self-check's person-name pattern of `21ab6fe` split a run of capitals into given
    names and a surname every way there is: 300 letters took 44 s of `inspect`."""
    from paperatlas.sources.estimates import count

    names = "J. Smith, Ann Lee and Hans-Jörg Schurr"
    text = "\n".join(["A" * 200_000, "Ab " * 50_000, names, "Smith, J., Jones, A. B., Brown, C."])
    assert count(text).name_lines == 2


def test_a_bold_opening_before_a_long_run_of_spaces_is_matched_at_once():
    """A label could start or end with any space of the run after `**`, so `_FIELD` tried
    every split of it (4,000 spaces: 7 s a line; five such lines kept `inspect` past 300 s)."""
    from paperatlas.sources.mdlines import _FIELD, _LABEL_ALONE

    run = "**" + " " * 200_000 + "x"
    assert _FIELD.match(run) is None and _LABEL_ALONE.match(run) is None
    # labels read as before
    assert _FIELD.match("**  Code  :** http://x").group("label", "value") == ("Code", "http://x")
    assert _FIELD.match("<b>Venue</b>: ICLR").group("label", "value") == ("Venue", "ICLR")
    assert _LABEL_ALONE.match("** Abstract ** :").group("label") == "Abstract"
