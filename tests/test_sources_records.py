"""The record finder on shapes found in real lists: table cells whose `<br>` lines hold more
than the column's field, links written as badges, a title paragraph with a paragraph of
names, a section whose list holds one paper, names ending in `et al.` or carrying an affiliation, and references whose first
author is written surname first."""

from __future__ import annotations

from pathlib import Path

from paperatlas import sources
from paperatlas.paper import Paper
from paperatlas.sources import doctree
from paperatlas.sources.finder import find

FIX = Path(__file__).parent / "fixtures" / "records"


def _read(name: str) -> list[Paper]:
    return [p for p in sources.read(FIX / name) if not p.skip]


def test_table_cell_lines_after_the_title_and_badge_links():
    papers = _read("digest_table_cells.md")
    assert [p.title for p in papers] == [
        "Memory Benches for Self-Evolving Agents",
        "Code as a Harness for Tool Agents",
        "Skill Generation Pipelines Under Test",
        "Trip Planning with Agentic Optimisers",
        "Auditing Benchmarks for Language Agents",
    ]
    ids = ["2605.10001", "2605.10002", "2605.10003", "2604.20001", "2604.20002"]
    for paper, arxiv_id in zip(papers, ids, strict=True):
        assert paper.urls and paper.urls[0] == f"https://arxiv.org/abs/{arxiv_id}"
        assert paper.abstract and paper.abstract.startswith("本文")


def test_title_paragraph_with_a_paragraph_of_names():
    papers = _read("title_names_paras.md")
    assert len(papers) == 5  # the last section's one paper too
    assert papers[0].title == "Warning Users About Erroneous Chat Translations"
    assert papers[0].authors == ["Ann Lee", "Bo Chen", "Carla Diaz", "Dev Patel"]
    assert papers[2].authors == ["Hana Sato"]
    assert papers[4].title == "How Evaluation Metrics Generalise to Rephrasing Across Languages"
    assert papers[4].authors == ["Lena Weber", "Mateo Silva", "Nora Berg"]


def test_names_ending_in_et_al():
    papers = _read("names_et_al.md")
    assert len(papers) == 10
    assert papers[0].title == "On the Effect of Anticipation on Reading Times"
    assert [p.authors for p in papers[:3]] == [["Ada Pimento"], ["Min Yao"], ["Attapol Rutter"]]
    assert all(len(p.authors) == 1 for p in papers)


def test_one_name_a_line_with_an_affiliation():
    # the finder's reading (the line reader reads this small file as well, and is kept)
    finding = find(doctree.from_markdown((FIX / "names_affiliations.md").read_text(encoding="utf-8")))
    assert [e.authors[0] if e.authors else None for e in finding.entries] == [
        "Sidney Leal",
        "Paulo Cordeiro",
        "Jessica Rodrigues",
        "Paulo Augusto de Lima Medeiros",
    ]


def test_reference_whose_first_author_is_written_surname_first():
    papers = _read("references_surname_first.md")
    assert [p.authors[:2] for p in papers] == [
        ["Joshi, Priya", "Sebastian Santos"],
        ["Zhao, Wayne Xin", "Kun Zhou"],
        ["Bubeck, Sebastien", "Varun Chandra"],
        ["Nguyen, Xuan-Phi", "Wenxuan Zhang"],
    ]
    assert papers[1].title == "A Survey of Large Language Models"


def test_org_todo_headings_are_read_as_org():
    path = FIX / "todo_reading.org"
    assert sources.detect(path) == "org"
    papers = _read("todo_reading.org")
    assert [p.title for p in papers][:2] == [
        "Self-Gated Activations for Deep Networks",
        "Related Items at a Pin Board: The Evolution of a Recommender",
    ]
    assert len(papers) == 5
    assert not any(p.title and p.title.startswith(("TODO", "DONE")) for p in papers)


def test_markdown_double_bracket_links_are_not_org():
    assert sources.detect(FIX / "title_dress.md") == "markdown"


def test_venue_before_and_submission_number_after_a_title_are_not_the_title():
    papers = _read("title_dress.md")
    assert [p.title for p in papers] == [
        "Feature Reweighting for Few-shot Object Detection",
        "Meta-Learning to Detect Rare Objects",
        "Incremental Few-Shot Object Detection",
        "Attending to Future Tokens for Sequence Generation",
        "Attention Is Not Not Explanation",
        "Practical Obstacles to Deploying Active Learning",
    ]
    assert papers[3].urls == ["https://arxiv.org/abs/1908.05915"]


def test_sheet_whose_header_names_only_the_title_column():
    path = FIX / "numbered_sheet.csv"
    assert sources.detect(path) == "csv"
    papers = _read("numbered_sheet.csv")
    assert [p.title for p in papers][:2] == [
        "Computational Metacognition",
        "Item Generation for Figural Analogy Problems: A Review",
    ]
    assert len(papers) == 4
    assert papers[0].authors == ["Ann Lee", "Bo Chen", "Carla Diaz"]


def test_sheet_whose_id_column_is_the_papers_page():
    papers = _read("forum_sheet.csv")
    assert papers[0].urls == ["https://openreview.net/forum?id=cOwOJNJijB"]
    assert papers[1].identifiers == {"openreview": "ttfiQcMeFB"}


def test_names_whose_affiliations_hold_commas():
    papers = _read("bold_br_affiliations.md")
    assert len(papers) == 4
    assert papers[0].authors == ["Ann Lee", "Bo Chen", "Carla Diaz"]
    assert papers[3].authors == ["Hana Sato", "Ivan Petrov"]


def test_names_after_a_linked_title_in_a_dated_line():
    papers = _read("dated_links.md")
    assert papers[1].title == "Learning Graphical Models Using Multiplicative Weights"
    assert [p.authors[0] if p.authors else None for p in papers] == [
        "J. Snow",
        "A. R. Klivans",
        "E. Shen",
        "D. Blei",
    ]


def test_fields_labelled_after_an_emoji_belong_to_the_paper_above():
    papers = _read("emoji_fields.md")
    assert [p.title for p in papers] == [
        "Planning for Graphical Interface Automation",
        "Agents Distracted by Their Environment",
        "A Cross-Environment Benchmark for Agents",
    ]
    assert papers[1].authors == ["Dev Patel", "Emil Novak"]
    assert papers[1].urls == ["https://arxiv.org/abs/2408.02544"]
    # the finder's own reading: the sub-items are fields, never records of their own
    finding = find(doctree.from_markdown((FIX / "emoji_fields.md").read_text(encoding="utf-8")))
    assert [e.title for e in finding.entries] == [p.title for p in papers]


def test_plain_title_sentence_before_an_italic_venue():
    papers = _read("sentence_titles.md")
    assert [p.title for p in papers] == [
        "Universal properties of variations of the little cubes operads",
        "Monoidal envelopes of families of operads and their Kan extensions",
        "Classification diagrams of simplicial categories",
        "Classifying spaces via the homotopy coherent nerve",
    ]


def test_page_text_before_paragraph_records_is_not_a_paper():
    papers = _read("italic_paras.md")
    assert len(papers) == 8
    assert papers[0].title == "Cascaded Classifier Ensembles for Pedestrian Detection"
    assert papers[0].authors == ["Ann Lee", "Bo Chen"]
    assert "Accepted Papers" not in {p.title for p in papers}


def test_paragraphs_holding_title_and_names_are_one_paper_each():
    # each paragraph is a whole paper; the next one (a title with commas) is not its names
    papers = _read("link_title_names_paras.md")
    assert [p.title for p in papers][-2:] == [
        "Object-oriented State Editing",
        "Relational Sequential Attend, Infer, Repeat",
    ]
    assert len(papers) == 5
    assert papers[3].authors == ["Fatima Khan", "Goran Ilic", "Hana Sato"]


def test_structured_author_field_ending_in_et_al():
    papers = _read("et_al_authors.json")
    assert [p.authors for p in papers] == [["Ann Lee"], ["Bo Chen", "Carla Diaz", "Dev Patel"]]


def test_citation_key_before_a_heading_title():
    papers = _read("citekey_headings.org")
    assert [p.title for p in papers] == [
        "A biomimetic robotic platform to study flight of bats",
        "Light in diagnosis, therapy and surgery",
        "Solid stress and elastic energy as measures of tumour mechanics",
        "A unified approach for motion and force control of robot manipulators",
    ]


def test_collapsed_abstract_and_code_tags_inside_a_title_cell():
    # `**Title** `Tag` <details><summary>Abstract</summary>...</details>` in one cell: the title
    # ends where the block opens, the abstract is the block's text, the tags are nobody's names
    papers = _read("details_in_cells.md")
    assert [p.title for p in papers] == [
        "Folding Grasps for Soft Objects",
        "Tactile Maps for Blind Insertion",
        "Pouring with Language Feedback",
        "Drawer Opening from One Demonstration",
        "Bimanual Cable Routing at Scale",
    ]
    assert [p.authors[0] for p in papers] == [
        "Mira Okafor Team",
        "Jonas Brandt Team",
        "Lea Fontaine Team",
        "Ken Watanabe Team",
        "Ana Ribeiro Team",
    ]
    assert all(p.abstract and p.abstract.split()[0] != "Abstract" for p in papers)
    assert papers[2].abstract.startswith("A robot pours liquids")


def test_a_badge_line_many_records_share_is_a_label_not_names():
    # `<span>Poster & Demo</span>` before each title reads as two one-word "names"; a title
    # sentence may end in "(Extended Abstract)."; the names may be followed by an icon
    papers = _read("badge_summaries.md")
    assert [p.title for p in papers] == [
        "Counting Models of Guarded Formulas (Extended Abstract)",
        "A Browser Tool for Teaching Tableau Proofs",
        "Repairs of Inconsistent Ontologies Under Closed Predicates",
        "Explaining Subsumptions with Short Proofs",
        "Query Rewriting for Temporal Description Logics (Extended Abstract)",
        "Ontology Alignment with Small Language Models",
    ]
    assert [p.authors for p in papers[:3]] == [
        ["Ilse Marchetti", "Tomas Lindqvist"],
        ["Hana Oyelaran", "Piet Vos"],
        ["Marta Quispe"],
    ]
    assert all(p.abstract and p.abstract.startswith(("We ", "Repairs", "Short", "Small")) for p in papers)


def test_a_table_of_linked_papers_beats_a_reading_that_adds_the_readmes_steps():
    # the line reader also takes the feature and setup bullets (`**Fork this**`) as papers:
    # entries without the link nearly every paper carries weigh half, and a reading with
    # fewer signs of a bad read and no less in it is kept
    papers = _read("digest_after_setup_steps.md")
    assert len(papers) == 36
    assert papers[0].title == "Routing Queries for Long Video Models"
    assert all(p.urls and "arxiv.org/abs/2608.1" in p.urls[0] for p in papers)


def test_a_programmes_time_slot_is_not_part_of_the_title():
    papers = _read("time_slots.md")
    assert [p.title for p in papers] == [
        "Label Noise in Graph Benchmarks Revisited",
        "Cleaning Preference Data Before Alignment",
        "Data Pruning for Retrieval Models",
        "Auditing Duplicates in Code Corpora",
        "Measuring Annotation Drift in Long-Running Datasets",
        "Synthetic Counterfactuals for Fairer Tabular Models",
    ]
    assert papers[0].urls == ["../assets/pdf/accepted/12.pdf"]


def test_bibtex_name_lists_ending_in_and_others():
    papers = _read("bibtex_names_items.md")
    assert [p.title for p in papers] == [
        "Reusing Features Across Denoising Steps",
        "Layer Skipping for Video Transformers",
        "Token Merging Meets Step Caching",
    ]
    assert [p.authors for p in papers] == [
        ["Okafor, Mira", "Brandt, Jonas", "Fontaine, Lea"],
        ["Watanabe, Ken", "Ribeiro, Ana"],
        ["Sato, Hana", "Lindqvist, Tomas"],
    ]


def test_a_bracketed_tag_before_the_title_is_neither_title_nor_names():
    papers = _read("tag_before_title.md")
    assert [p.title for p in papers] == [
        "Open-Set Tracking of Many Objects",
        "Spiking Features for Fast Association",
        "Event Streams for Traffic Counting",
        "Language Cues for Multi-Object Tracking",
    ]
    assert [p.authors[0] for p in papers] == ["Ana Ribeiro", "Hana Sato", "Mira Okafor", "Omar Haddad"]


def test_bullet_notes_under_a_linked_heading_are_the_papers_notes():
    # the notes are the most records, but bare ones inside the richer heading records
    papers = _read("headings_with_notes.org")
    assert [p.title for p in papers] == [
        "Convolutions Revisited for Large Images",
        "Contrastive Views Without Labels",
        "Scaling Width, Depth and Resolution Together",
        "Trees Still Win on Tables",
    ]
    assert [p.authors[0] for p in papers] == ["Okafor", "Watanabe", "Fontaine", "Haddad"]
    assert papers[0].urls == ["https://arxiv.org/abs/2201.00001"]


def test_a_venue_and_date_before_the_title_and_a_title_going_on_after_its_bold_name():
    papers = _read("venue_before_title.md")
    assert [p.title for p in papers] == [
        "Dexterous Hands from Egocentric Video",
        "Latent Actions Shared Across Robot Hands",
        "Editable Scene Elements for Controllable Synthesis",
        "Depth-supervised Fields: Fewer Views and Faster Training for Free",
        "Vid2Arm: End-to-end Video-conditioned Policy Learning",
        "Grasp Sets for Clutter",  # a description in sentence case is not the title going on
    ]
    assert papers[0].urls == ["https://arxiv.org/abs/2603.10001"]


def test_a_sections_one_title_with_its_list_of_labelled_links_is_a_paper():
    papers = _read("one_paper_sections.md")
    assert [p.title for p in papers] == [
        "Real-time Detectors Without Anchors",
        "Open-Vocabulary Boxes from Captions",
        "Small Objects at Long Range",
        "Edit Once for a Whole Batch of Images",
        "Knowledge-Guided Robust Scene Graph Generation",
    ]
    assert [p.urls[0] for p in papers][3:] == [
        "https://arxiv.org/abs/2401.00003",
        "https://arxiv.org/abs/2403.00004",
    ]


def test_a_publication_pages_joint_with_names_and_an_id_as_the_link_text():
    papers = _read("joint_with.md")
    assert [p.title for p in papers] == [
        "Cubical models of presheaves and a formula of Bousfield and Kan",
        "Derived mapping spaces of higher categories",
        "Monoidal relative categories model monoidal higher categories",
        "A short proof of the universality of a relative nerve",
    ]
    assert [p.authors for p in papers] == [
        ["Ana Ribeiro", "Ken Watanabe"],
        ["Ana Ribeiro"],
        [],
        ["Lea Fontaine"],
    ]
    assert papers[2].urls == ["https://arxiv.org/abs/2504.10003"]


def test_a_bold_label_the_list_names_is_a_field_never_names():
    # the finder's reading (the line reader reads this small file as well)
    papers = find(doctree.from_markdown((FIX / "unknown_bold_labels.md").read_text(encoding="utf-8"))).entries
    assert [p.title for p in papers][2:] == [
        "A Benchmark for Microscopy Segmentation",
        "Calibrated Uncertainty for Gene Expression Models",
        "Active Learning for Assay Design",
    ]
    assert [p.authors for p in papers] == [
        ["Ana Ribeiro", "Ken Watanabe"],
        ["Lea Fontaine", "Omar Haddad", "Julia Berg"],
        [],
        ["Chen Wei"],
        [],
    ]


def test_a_paper_listed_under_two_headings_is_counted_not_warned_about():
    report = sources.ReadReport()
    papers = [p for p in sources.read(FIX / "details_in_cells.md", report) if not p.skip]
    assert len(papers) == 5
    assert not any("repeat" in w for w in report.warnings)
    assert report.skipped["repeats a paper listed before (merged into it)"] == 3
