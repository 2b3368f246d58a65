"""Per-paper facts read from the title and abstract (pipeline.py runs them over the store).

names.py (+ names_model.py, known.py)  the contribution's name (its cue rules: name_cues.py,
                                       the patterns they read: name_shapes.py)
kinds.py (+ kinds_model.py)            what kind of paper it is (method, benchmark, ...)
numbers.py                             headline numbers with what they measure
links.py                               code, data and project links
keyphrases.py                          5-8 keyphrases
titles.py (+ title_trim.py)            a written title for a paper that has none
gist.py, cjk.py                        a one-line gist (Chinese abstracts too)
areas.py (+ area_vectors.py)           the research area (a trained classifier)
text.py                                LaTeX/Markdown clean-up and sentence splitting
"""
