"""Structured records whose fields are not under the usual keys: a programme's speakers and
its stream link, persons written as mappings, links grouped in a mapping, a feed's `creator`
and `description`; EndNote's tagged export, and RIS records numbered by a search engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperatlas import sources
from paperatlas.errors import InputError
from paperatlas.paper import Paper
from paperatlas.sources import ReadReport

FIX = Path(__file__).parent / "fixtures" / "record_shapes"


def _read(name: str, report: ReadReport | None = None) -> list[Paper]:
    return list(sources.read(FIX / name, report))


def test_yaml_programme_talks_have_their_speakers_and_no_stream_link():
    papers = _read("sessions.yaml")
    # the opening and the break carry only the link every talk shares: no papers
    assert [p.title for p in papers] == [
        "Shared Limbs: Control by Muscle Signals",  # `&#58;` is a colon
        "Whisker Haptics for Spatial Guidance",
    ]
    assert papers[0].authors == ["Rina Oda", "Tomas Hale", "Mia Sorensen"]  # `talk-speakers`
    assert papers[1].authors == ["Kenji Mori", "Lea Brandt"]
    assert all(p.urls == [] for p in papers)  # the room's stream is no paper's link


def test_yaml_persons_written_as_mappings_without_a_name_key():
    papers = _read("posters.yml")
    assert [p.authors for p in papers] == [["Ana Ruiz", "Piotr Nowak"], ["Lena Vogel"]]


def test_yaml_links_grouped_in_a_mapping():
    papers = _read("pub_links.yml")
    assert [p.title for p in papers] == [
        "Crop Parcel Series with Light Models",
        "Semantic Hyperlapses of Long Videos",
        "Teaching Robots by Demonstration",
    ]
    first, second, third = papers
    assert first.urls[0] == "https://doi.org/10.1109/LGRS.2025.3589176"
    assert first.identifiers["doi"] == "10.1109/lgrs.2025.3589176"
    assert "https://github.com/example-lab/crop-series" in first.urls + first.code_urls
    assert second.urls == ["https://journals.example.org/jvc/article/view/5845"]
    assert third.urls == ["resources/reed_rl21.pdf"]  # not its label "Here!"
    assert third.authors[0] == "Sam Reed"


def test_json_feed_creator_and_description():
    report = ReadReport()
    papers = _read("feed.json", report)
    assert report.format == "json"
    assert [p.authors for p in papers] == [
        ["Fatih Ilhan", "Selim Tekin", "Ling Liu"],
        ["Ana Costa", "Bo Chen"],
    ]
    assert papers[0].abstract.startswith("Fine-tuning large pretrained models")
    assert papers[1].abstract.startswith("Clients join a federation")


def test_endnote_tagged_export():
    report = ReadReport()
    papers = _read("citations.enw", report)
    assert report.format == "endnote"
    assert [p.title for p in papers] == [
        "Attention Training in Adolescents with Learning Difficulties",
        "Slang Words in Online Talk: A Literature Study",
    ]
    first, second = papers
    assert first.authors == ["Dana Levi", "Tomas Kolar"]
    assert first.venue == "Journal of Learning Studies" and first.year == 2016
    assert second.urls == ["https://osf.io/preprints/lissa/j2ac3/"]  # written in `%I`
    assert second.extra["publisher"] == "Center for Open Science"
    assert report.skipped == {"not a paper (%0 Book)": 1}
    assert first.source.endswith("citations.enw:1") and second.source.endswith("citations.enw:13")


def test_ris_records_numbered_before_their_type_line():
    report = ReadReport()
    papers = _read("numbered_medline.ris", report)
    assert report.format == "ris"
    assert [p.authors[0] for p in papers] == ["Karin Ribi", "Eric Lai"]
    assert papers[0].identifiers["doi"] == "10.1007/s10549-020-05622-5"


def test_zotero_rdf_items_with_their_venue_and_links():
    report = ReadReport()
    papers = _read("library.rdf", report)
    assert report.format == "zotero-rdf"
    # the attachment, the note and the journal are no items; the book is no paper
    assert [p.title for p in papers] == [
        "Place Attachment and Flood Risk in Coastal Towns",
        "Sensing Dune Erosion with Cheap Cameras",
        "Coastal Monitoring Methods Report",
    ]
    assert report.skipped == {"not a paper (type book)": 1}
    first, second, third = papers
    assert first.authors == ["Ngozi Okafor", "Per Lindqvist"]
    assert first.venue == "Journal of Environmental Psychology"  # by `rdf:resource`
    assert first.identifiers == {"doi": "10.1016/j.jenvp.2021.101600"}
    assert first.urls == ["https://www.sciencedirect.com/science/article/pii/S0272494421000700"]
    assert first.year == 2021 and first.keywords == ["place attachment"]
    assert first.abstract == "We surveyed residents of four coastal towns."
    assert second.venue == "Proceedings of the Coastal Systems Conference"  # nested
    assert second.authors == ["Rami Haddad"] and second.source.endswith("library.rdf:49")
    assert third.authors == []  # its series editor is no author


def test_zotero_rdf_declaring_entities_is_refused_with_its_line(tmp_path):
    rdf = tmp_path / "bomb.rdf"
    head = (FIX / "library.rdf").read_text().split("\n", 9)
    rdf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [\n <!ENTITY a "aaaaaaaaaa">\n'
        ' <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n]>\n'
        + "\n".join(head[:9])
        + "\n<bib:Article><z:itemType>journalArticle</z:itemType><dc:title>&b;</dc:title></bib:Article>\n</rdf:RDF>\n"
    )
    with pytest.raises(InputError, match=r"bomb\.rdf:3: XML declaring entities is not read"):
        list(sources.read(rdf))


def test_zotero_rdf_not_closed_is_refused_with_its_line(tmp_path):
    rdf = tmp_path / "cut.rdf"
    rdf.write_text((FIX / "library.rdf").read_text()[:1500])
    with pytest.raises(InputError, match=r"cut\.rdf:\d+: not valid XML"):
        list(sources.read(rdf))


def test_json_programme_title_and_speakers_under_keys_of_its_own():
    papers = _read("talks.json")
    assert [(p.title, p.authors) for p in papers] == [
        ("Typed Channels for Asynchronous Processes", ["Dana Park", "Eli Novak"]),
        ("Weighted Barbed Congruence Revisited", ["Femi Ade"]),
    ]  # the session's title is not the paper's


def test_yaml_programme_with_prefixed_keys_is_sniffed_as_yaml():
    report = ReadReport()
    papers = _read("talks.yml", report)
    assert report.format == "yaml"  # `- talk_title:` items (was plain text, titles `talk_title: ...`)
    assert [(p.title, p.authors) for p in papers] == [
        ("Typed Channels for Asynchronous Processes", ["Dana Park", "Eli Novak"]),
        ("Weighted Barbed Congruence Revisited", ["Femi Ade"]),
        ("Bounded Games on Weighted Graphs", ["Lea Brandt"]),
    ]


def test_json_records_with_no_title_key_are_refused_naming_their_keys(tmp_path):
    path = tmp_path / "survey.json"
    path.write_text(
        '[{"reference": "Lee et al. (1987)", "TRAITS": {"Openness": "no"}}, {"reference": "Chen (2000)"}]'
    )
    with pytest.raises(InputError) as refused:
        list(sources.read(path))
    assert str(refused.value).endswith(
        "survey.json:1: no paper in it: no title and no abstract: none of its keys (reference, TRAITS) "
        "names one (name them title, abstract)"
    )


def test_ris_doi_is_a_link_beside_a_database_record_page():
    papers = _read("numbered_medline.ris")
    # `UR` is the database's record page; the DOI (written as an address) is the paper's
    assert papers[0].urls == [
        "http://ovidsp.example.com/ovidweb.cgi?T=JS&AN=32274665",
        "https://dx.doi.org/10.1007/s10549-020-05622-5",
    ]
