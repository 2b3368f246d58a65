"""Links: with or without scheme, inside LaTeX/Markdown, classified, punctuation trimmed."""

from paperatlas.enrich.links import extract_links


def test_links_without_scheme_are_found_and_classified():
    abstract = "We release the scans at zenodo.org/records/998877 and the code at github.com/ctlab/ScanBench."
    assert extract_links(abstract) == [
        {"url": "zenodo.org/records/998877", "type": "data"},
        {"url": "github.com/ctlab/ScanBench", "type": "code"},
    ]


def test_trailing_punctuation_and_brackets_are_trimmed():
    abstract = (
        "Code is available (https://anonymous.4open.science/r/Flux-7A2B). "
        "A demo lives at https://fluxdemo.github.io/, and weights at "
        "https://huggingface.co/fluxlab/flux-small;"
    )
    urls = [link["url"] for link in extract_links(abstract)]
    assert urls == [
        "https://anonymous.4open.science/r/Flux-7A2B",
        "https://fluxdemo.github.io/",
        "https://huggingface.co/fluxlab/flux-small",
    ]


def test_types_code_data_project_paper():
    abstract = (
        "Data: https://huggingface.co/datasets/acme/tables. Project: "
        "https://sites.google.com/view/acme-tables. Extended version: arxiv.org/abs/2502.01234. "
        "Code: gitlab.com/acme/tables."
    )
    types = {link["url"]: link["type"] for link in extract_links(abstract)}
    assert types == {
        "https://huggingface.co/datasets/acme/tables": "data",
        "https://sites.google.com/view/acme-tables": "project",
        "arxiv.org/abs/2502.01234": "paper",
        "gitlab.com/acme/tables": "code",
    }


def test_latex_and_markdown_wrappers():
    abstract = (
        r"See \url{https://github.com/acme/deep\_sets} and \href{https://acme.github.io/ds}{our page}; "
        "mirror: [https://github.com/acme/mirror](https://github.com/acme/mirror)."
    )
    urls = [link["url"] for link in extract_links(abstract)]
    assert urls == [
        "https://github.com/acme/deep_sets",
        "https://acme.github.io/ds",
        "https://github.com/acme/mirror",
    ]


def test_bare_project_host_counts_but_plain_domains_and_versions_do_not():
    abstract = (
        "Videos at robodance.github.io. We compare with example.com and use version 2.5.1 "
        "of the e.g. toolkit."
    )
    assert extract_links(abstract) == [{"url": "robodance.github.io", "type": "project"}]


def test_no_links_in_plain_abstract():
    assert extract_links("We study optimisation of deep networks. Code will be released.") == []
