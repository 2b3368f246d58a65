"""Search: keywords (BM25 over the store's FTS5 index) and meaning (vectors), fused.

- The query's language is read from its script (and, for Latin script, its function
  words). English goes to BM25 plus the default model's vectors.
- Chinese (and other non-Latin) queries go to the multilingual model, whose vectors of
  the English abstracts live in the same space, plus feedback in the English model's
  space; Chinese terms the shipped glossary knows are translated word by word, the others
  by the atlas's own learned vocabulary, and searched like an English query (BM25 and
  English vectors). With no translation, BM25 only sees the query's stray Latin-script
  words ("KV"), down-weighted.
- Misspelt English words are searched, by every signal, as the nearest words of the
  atlas's titles (`spelling`; `SearchResult.corrected` says so, `SearchConfig(spelling=
  False)` searches as typed); a query that is a paper's arXiv id, DOI, OpenReview id or
  exact title puts that paper first (`known_paper`).
- User text never reaches FTS5 as syntax: it is cut into alphanumeric terms, each one
  quoted, joined with OR (plus the whole phrase for short queries); terms most papers
  contain are dropped.
- A query's MiniLM or use-multilingual vector passes through a learned linear adapter
  first (`query_adapter`, fit on the training papers' titles and TL;DRs against their
  abstracts).
- The ranked lists are fused, restricted to the caller's filters, and paged. An English
  query in an atlas with MiniLM vectors is ranked by the learned fusion (`learned`: one
  score per candidate from its BM25, vector, MiniLM and name evidence, every candidate
  judged on its real cosines; fit on thousands of known-item queries by
  scripts/build_search_fusion.py); other queries by the weighted score fusion (`FUSION`,
  `FUSION_FOREIGN`, chosen on the tuning half of the benchmark queries).
- Each hit says why it matched (the query terms found, the cosine similarity) and
  carries a snippet as plain-text segments flagged `match` — front ends style those
  segments themselves and escape the text, so nothing from an abstract is ever HTML.

Modules, in the order a query meets them (each imports only those above it, never this
package): `query` (terms, FTS5 expressions), `chinese_text` (simplified characters,
jieba's words), `framing` (request words around the topic cut), `language`, `glossary`,
`query_adapter` (a query's vector moved toward abstracts), `vectors` (models, query
vectors, nearest papers), `translate` (learned Chinese terms),
`keyword` (BM25 in memory), `titles`, `spelling`, `known_paper`, `names`, `learned`, `fusion`, `config` (`SearchConfig`: how a search
ranks, passed explicitly), `filters`, `snippets`, `results`, `hits`,
`engine` (`search`, `candidate_rankings`), `similar_papers`. Values read from the store are kept
per store change by `paperatlas.cache.StoreCache`.
"""

from __future__ import annotations

from paperatlas.errors import SearchError
from paperatlas.search.config import SHIPPED, SearchConfig
from paperatlas.search.engine import CANDIDATES, candidate_rankings, search
from paperatlas.search.filters import MAX_K
from paperatlas.search.fusion import FUSION, FUSION_FOREIGN, Rankings, fuse, fuse_rankings, fusion_for
from paperatlas.search.glossary import glossary_rest, translate_query
from paperatlas.search.keyword import informative_terms, keyword_ranking
from paperatlas.search.language import detect_language, language_name
from paperatlas.search.names import name_ranking
from paperatlas.search.query import (
    MAX_QUERY_CHARS,
    MAX_TERMS,
    match_expression,
    phrase_expression,
    query_terms,
)
from paperatlas.search.results import Hit, SearchResult
from paperatlas.search.similar_papers import precompute_similar, similar, similar_ranking, similar_to_paper
from paperatlas.search.snippets import MARK_CLOSE, MARK_OPEN, SNIPPET_CHARS, mark_terms, stem
from paperatlas.search.vectors import MINILM_MODEL, MULTILINGUAL_MODEL, vector_models_for
from paperatlas.text import STOPWORDS

__all__ = [
    "CANDIDATES",
    "FUSION",
    "FUSION_FOREIGN",
    "MARK_CLOSE",
    "MARK_OPEN",
    "MAX_K",
    "MAX_QUERY_CHARS",
    "MAX_TERMS",
    "MINILM_MODEL",
    "MULTILINGUAL_MODEL",
    "SHIPPED",
    "SNIPPET_CHARS",
    "STOPWORDS",
    "Hit",
    "Rankings",
    "SearchConfig",
    "SearchError",
    "SearchResult",
    "candidate_rankings",
    "detect_language",
    "fuse",
    "fuse_rankings",
    "fusion_for",
    "glossary_rest",
    "informative_terms",
    "keyword_ranking",
    "language_name",
    "mark_terms",
    "match_expression",
    "name_ranking",
    "phrase_expression",
    "precompute_similar",
    "query_terms",
    "search",
    "similar",
    "similar_ranking",
    "similar_to_paper",
    "stem",
    "translate_query",
    "vector_models_for",
]
