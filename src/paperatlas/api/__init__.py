"""The library's front: `Atlas` (front.py), the one way in for library users, the CLI and
the web app, and what only the web app reads (web_reads.py). `Atlas` hands each job to
the module named for its role: `steps` (adding files, facts, vectors), `answers` (search,
similar, recommend, compare, digest, export, a model's answers), `readouts` (papers, one
paper, facts, maps, references), `personal` (likes, states, notes, tags, the personal-data
file), `feeds` (follows and their Atom feeds), `copies` (backup and restore)."""

from paperatlas.api.front import Atlas, PathLike

__all__ = ["Atlas", "PathLike"]
