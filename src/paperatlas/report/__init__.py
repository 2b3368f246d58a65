"""Outputs to share, read from the store.

export.py       the papers as JSONL, CSV, BibTeX or Markdown
digest.py       a digest of a list or a collection (digest_data.py gathers it; markdown.py and
                html.py write it, in the words of strings.py)
mapplot.py      map pictures (the publication PNG, the digest's numbered groups) and the
                self-contained HTML map
links.py        a paper's page and the http(s)-only link rule
"""
