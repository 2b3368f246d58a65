"""A list's titles dressed alike (a citation key, names and year, a score, a venue after the
title) lose the dress, its names becoming the authors; emphasis that every record repeats (the
page owner's name) or that sits inside a sentence (a species) is no title."""

from __future__ import annotations

from pathlib import Path

from paperatlas import sources
from paperatlas.paper import Paper
from paperatlas.sources import ReadReport
from paperatlas.sources.names import group_author
from paperatlas.sources.title_dress import undress

FIX = Path(__file__).parent / "fixtures" / "dress"


def _read(name: str, report: ReadReport | None = None) -> list[Paper]:
    return list(sources.read(FIX / name, report))


def test_citation_key_before_each_title_is_its_first_author():
    papers = _read("key_first.md")
    assert len(papers) == 5
    assert papers[0].title == "Graph Routing for Approximate Neighbour Search"
    assert papers[0].authors == ["Okafor"]
    assert [p.authors[0] for p in papers] == ["Okafor", "Lindqvist", "Haddad", "Moreau", "Tanaka"]


def test_score_before_each_digest_title_is_no_part_of_it():
    papers = _read("score_first.md")
    assert [p.title for p in papers] == [
        "Attribution Feedback for Agent Memory Learning",
        "Structure-aware Rewards for Kernel Generation",
        "Detecting Interface Principle Violations",
        "Multi-horizon Policies for Changing Worlds",
    ]
    assert papers[0].authors == ["Lina Park", "Tomas Berg"]


def test_venue_and_year_after_each_title():
    papers = _read("venue_after.md")
    assert len(papers) == 4
    assert papers[0].title == "Domain Shift Erasers for Federated Clients (DSE)"  # its short name kept
    assert (papers[0].venue, papers[0].year) == ("CVPR", 2025)
    assert papers[2].title == "Personalised Federated Learning with Domain Guarantees"
    assert papers[2].venue == "Expert Systems with Applications"
    assert papers[1].urls == ["https://arxiv.org/abs/2501.00012"]


def test_names_and_year_before_each_reference_title():
    papers = _read("names_year_first.rst")
    assert [p.title for p in papers] == [
        "A large-scale model of a working memory",
        "Dopamine and the sequencing of syllables",
        "Robot touch that sorts surface textures",
    ]
    assert [p.authors for p in papers] == [["Okafor"], ["Lindqvist", "Moreau"], ["Tanaka"]]
    assert papers[0].year == 2012


def test_owner_name_in_bold_in_every_reference_is_not_the_title():
    report = ReadReport()
    papers = _read("vancouver_pubs.md", report)
    assert len(papers) == 4
    assert papers[0].title == "Metabolite profiles of four pineapple (Ananas comosus L. Merr) varieties"
    assert papers[0].authors[:3] == ["Zhou P", "Wu J", "Marlow K"]
    assert papers[1].title == "Gene families in passion fruit (Passiflora edulis Sims) and stress response"
    assert papers[1].authors[0] == "Marlow K"
    assert papers[1].urls == ["https://doi.org/10.1007/s00299-000-00002-x"]
    assert (papers[3].venue, papers[3].year) == ("Tropical Plants", 2024)
    assert "sentence after the names" in (report.pattern or "")


def test_a_dress_only_a_few_titles_wear_stays():
    titles = [
        "Lee et al. (2016) A reference written with its names",
        "Graph Routing for Neighbour Search",
        "Quantised Codebooks at Billion Scale",
        "Learned Partitions for Vector Queries",
    ]
    papers = [Paper(title=t) for t in titles]
    assert undress(papers) == 0
    assert [p.title for p in papers] == titles  # one title in four: that title's own words
    assert not any(p.authors for p in papers)


def test_apa_names_with_an_ellipsis_before_the_last_author():
    papers = _read("apa_ellipsis.md")
    assert [p.authors[0] for p in papers] == ["Okafor, T.", "Berg, P.-J.", "Lind, E."]
    assert papers[0].authors[-2:] == ["Sato, N.", "Moreau, M. D."]  # the names left out are not guessed
    assert papers[0].title == "Entropy Reduction by Iterative Information Transfer"


def test_a_names_line_ending_et_al_is_no_title():
    papers = _read("names_then_quoted.md")
    assert [p.title for p in papers] == [
        "Optimal Consensus for Both Worlds",
        "Sok: data sovereignty",
        "Perfectly Secure Network-Agnostic Computation",
    ]
    assert [p.authors[0] for p in papers] == ["K. Marlow", "M. Okafor", "G. Haddad"]


def test_numbered_citations_after_a_lead_in_line():
    report = ReadReport()
    papers = _read("lead_in_citations.md", report)
    assert len(papers) == 6  # "... read closely so far:" leads into its list: no paper over it
    assert (report.pattern or "").startswith("list items")
    assert [p.title for p in papers[:4]] == [
        "Deep features for everything",
        "Going wider with convolutions",
        "Dropping units to stop networks from overfitting",  # GB/T's [J] is no part of it
        "Binarised networks with weights constrained to plus or minus one",
    ]
    assert [p.authors[0] for p in papers[:4]] == ["Okafor, Mira", "Lind, Tomas", "Sato H", "Moreau K"]


def test_a_title_wrapped_inside_its_emphasis_is_one_title():
    papers = _read("wrapped_titles.md")
    assert [p.title for p in papers] == [
        "Object Abstraction in Visual Model-Based Reinforcement Learning",
        "Differentiable Maps for Task-Oriented Navigation",
        "Structured Models of Indoor Scenes via Generative Scene Graphs",
        "Learning to Plan with Latent Dynamics",
    ]
    assert [p.authors[0] for p in papers] == ["Ana Silva", "Omar Haddad", "Lina Park", "Paul Ortiz"]
    assert papers[2].urls == ["/pdf/P03.pdf"]


def test_two_emphases_side_by_side_are_two_pieces():
    # `**2026-03-02** **Title**`: the date is its own bold piece, never the title's start
    papers = _read("emphases_apart.md")
    assert [p.title for p in papers] == [
        "Sparse Routers for Streaming Speech Models",
        "Tidal Graph Priors for Coastal Flood Maps",
        "Lattice Probes for Robot Grasp Memory",
        "Quiet Tokens in Long Video Diffusion",
    ]
    assert papers[0].urls == ["https://arxiv.org/abs/2603.01001"]


def test_year_and_venue_before_each_title():
    papers = _read("when_first.md")
    assert [p.title for p in papers] == [
        "Walkers: Online learning of node representations",
        "Knowledge paths for item graphs",
        "Lighter graph convolution for recommendation",
        "Gradient descent on curved manifolds",
    ]
    assert [(p.venue, p.year) for p in papers[:3]] == [("KDD", 2014), ("SIGIR", 2019), ("WWW", 2020)]
    assert papers[3].year == 2013


def test_year_then_title_in_book_title_marks():
    papers = _read("book_marks.md")
    assert [p.title for p in papers] == [
        "WebQL: restructuring documents and webs",
        "Open extraction of relations from the web",
        "Page segmentation by visual blocks",
    ]
    assert papers[1].urls == ["https://example.org/openie.pdf"]


def test_names_ending_at_a_comma_before_each_title_are_its_authors():
    papers = _read("names_listed_first.md")
    assert [p.title for p in papers] == [
        "Sparse Routers: Streaming Speech with Fewer Experts",
        "Tidal Graph Priors for Coastal Flood Maps",
        "Fuzzing Query Planners with Grammar Drift",
        "Quiet Tokens in Long Video Diffusion",
    ]
    assert [p.authors[0] for p in papers] == ["Mira Osei", "Jonas Adeyemi", "Tomas Berg", "Anika Roy"]
    assert papers[1].authors == ["Jonas Adeyemi", "Lina Park", "Anika Roy", "Wen Hu"]


def test_a_year_before_one_title_alone_stays_in_it():
    titles = [
        "2001 - A Space Odyssey of Neural Codes",
        "Graph Routing for Approximate Neighbour Search",
        "Sparse Routers for Streaming Speech Models",
        "Tidal Graph Priors for Coastal Flood Maps",
    ]
    papers = [Paper(abstract="", title=t, authors=["Ann Lee", "Bo Chen"]) for t in titles]
    assert undress(papers) == 0
    assert papers[0].title == titles[0]


def test_a_team_that_signs_a_paper_is_its_author():
    papers = _read("group_authors_below.md")
    assert [p.authors for p in papers] == [
        ["Lake Institute of Technology Research Team"],
        ["Mira Osei", "Tomas Berg", "Lina Park"],
        ["Harbor Vision Team"],
    ]
    assert papers[0].title == "Tidal Graph Priors for Coastal Flood Maps"


def test_a_title_naming_a_team_is_no_author():
    assert group_author("Harbor Vision Team.")
    assert group_author("The Open Grasp Consortium")
    assert not group_author("Building a Research Team")
    assert not group_author("Learning to Team Up")


def test_italic_names_after_each_title_kept_whichever_reading_wins():
    # a small list the line reader reads as well as the record finder: the names the finder
    # finds in the italic after each title still reach the papers
    papers = _read("group_authors.md")
    assert [p.authors[:1] for p in papers] == [
        ["Harbor Vision Team"],
        ["Northfield University Research Team"],
        ["The Open Grasp Consortium"],
        ["Mira Osei"],
        ["Wen Hu"],
    ]
    assert papers[3].authors == ["Mira Osei", "Tomas Berg"]
    assert papers[3].urls == ["https://arxiv.org/abs/2405.01002"]


def test_names_emphasised_before_each_title_are_its_authors():
    # most records' emphasis is person names, a plain title on the line after: names, not titles
    report = ReadReport()
    papers = _read("names_emphasised_first.md", report)
    assert [p.title for p in papers] == [
        "Typed Effects for Streaming Queries",
        "Linear Resources in Session Calculi",
        "Certified Parsing of Layout-Sensitive Grammars",
        "A Gradual Verifier for Concurrent Separation Logic",
        "Incremental Type Checking at Scale",
    ]
    assert papers[0].authors == ["Ann Okafor", "Bruno Lindqvist", "Chen Wu"]
    assert papers[2].authors == ["Farah Tanaka"]
    assert report.pattern == "list items: authors = bold names, title = the text after them"


def test_names_with_a_serial_comma_and_their_affiliation_after_a_bar():
    papers = _read("names_bar_affiliation.md")
    assert [p.title for p in papers] == [
        "Adaptive Assistance Profiles for Hip Exoskeletons",
        "Soft Actuators Printed in One Piece",
        "Learning Joint Torques from Surface Signals",
    ]
    assert papers[0].authors == ["Ana Ruiz", "Tomas Berg", "Lina Park"]
    assert papers[1].authors == ["Omar Haddad"]  # the lab after the bar is no author
    assert papers[2].authors == ["Mei Tanaka", "Jonas Novak", "Ines Ferreira"]


def test_tab_separated_names_and_title_are_two_fields():
    papers = _read("names_tab_title.md")
    assert [p.title for p in papers] == [
        "Typed Effects for Streaming Queries",
        "Linear Resources in Session Calculi",
        "Certified Parsing of Layout-Sensitive Grammars",
        "A Gradual Verifier for Concurrent Separation Logic",
    ]
    assert [p.authors[0] for p in papers] == ["Ann Okafor", "Chen Wu", "Farah Tanaka", "Greta Novak"]
    assert papers[1].authors == ["Chen Wu", "Dana Haddad", "Emil Moreau"]


def test_a_label_every_record_repeats_is_no_author():
    # `** Short Summary` under each paper's heading: the same "name" in every record, never
    # beside another name
    papers = _read("shared_label_names.org")
    assert len(papers) == 4
    assert papers[0].title == "Exact Solvers for the Rooted Tree Problem"
    assert all(p.authors == [] for p in papers)


def test_a_page_owner_signing_most_papers_alone_keeps_her_name():
    papers = _read("owner_alone.md")
    assert [p.authors for p in papers] == [["Ana Ruiz"]] * 3 + [["Ana Ruiz", "Tomas Berg"]]


def test_a_tab_after_a_linked_title_is_spacing_not_a_cell():
    papers = _read("tab_after_linked_title.md")
    assert [p.title for p in papers] == [
        "Switching Systems for Q-Learning Analysis",
        "Near-Optimal Sampling in Two-Player Games",
        "Mean-Field Games Found by Actor-Critic",
    ]
    assert papers[0].urls == ["papers/27.pdf"]
    assert papers[0].authors == ["Ann Okafor", "Bruno Lindqvist"]
