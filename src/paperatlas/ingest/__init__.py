"""Files -> store: read each file, deduplicate against what is stored, merge, record
list membership. One transaction per file, so an interrupted or failed import leaves
the store as it was.

How a record finds its paper, in order:
1. its source id is already stored (and the texts are not unrelated: an id reused for
   another paper, like two BibTeX files' `smith2020`, gives that paper `smith2020~<hash>`);
   an id met again in the same file is the paper of its first record there, whatever its
   text (a file names one paper per id; in a folder, per file of it);
2. an identifier is known: arXiv id (version stripped), DOI (lower case), OpenReview id
   (the same paper from a Markdown digest and from a BibTeX file is one paper) — unless
   the two carry different ids of the same kind;
3. exact: the hash of its normalised abstract (or `abstract_final`) is known;
4. title: its normalised title (long enough to be distinctive) is known, and one of the
   two is title-only (a title-only entry and the full record of the same paper);
5. near-duplicate: MinHash LSH finds a stored abstract whose word-3-shingle Jaccard
   similarity with it is >= 0.8 (checked exactly on the texts).
Two different records of the same list are never merged by 3 or 5 (a list does not
name one paper twice under two ids; ICLR has near-identical resubmissions). Merging
fills the stored paper's empty fields (a title-only paper gains its abstract) and
unions its keywords, urls, code urls and identifiers; a paper known only by a hash id
takes the source id of its twin.

Title-only papers (a title, no abstract: awesome lists, BibTeX without abstracts) are
stored with abstract ''. Records a reader marks `skip` are counted by reason, never stored.
"""

from paperatlas.ingest.add import add_files, inspect_file, list_name_of
from paperatlas.ingest.merge import merge_changes
from paperatlas.ingest.report import AddReport, FileReport, no_papers_message

__all__ = [
    "AddReport",
    "FileReport",
    "add_files",
    "inspect_file",
    "list_name_of",
    "merge_changes",
    "no_papers_message",
]
