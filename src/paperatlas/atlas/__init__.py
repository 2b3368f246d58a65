"""The atlas: a stored map of one list (or the whole store) with labelled topics at two levels.

build.py     build (or reuse) a list's map, placed on the reference in use
cluster.py   layout and broad/fine topics from vectors
labels.py    topic labels from the papers' phrases
topics.py    the stored topic rows of a clustering
reference.py the reference atlas (the field) a list is placed on; reference_build.py makes one
view.py      reading stored maps: the web/HTML view, each paper's topic
"""

from paperatlas.atlas.build import (
    ALGORITHM,
    ALL_PAPERS,
    MIN_WORDS,
    build_map,
    map_is_current,
    map_scope,
    map_signature,
    pick_model,
    reference_layer,
    reference_scope,
    signature_for,
)
from paperatlas.atlas.labels import paper_texts
from paperatlas.atlas.view import TopicLookup, map_view

__all__ = [
    "ALGORITHM",
    "ALL_PAPERS",
    "MIN_WORDS",
    "TopicLookup",
    "build_map",
    "map_is_current",
    "map_scope",
    "map_signature",
    "map_view",
    "paper_texts",
    "pick_model",
    "reference_layer",
    "reference_scope",
    "signature_for",
]
