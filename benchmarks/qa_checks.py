"""QA pass figures, each beside the same run's baseline (the rule switched off in-process).

1. BibTeX round trip: every real-world list read, exported as BibTeX by `export_papers`, the
   export read back; papers read back with the @misc paper-length-abstract rule vs without it.
2. Names from titles: papers of the real-world lists with a name, `extract_facts` with the
   title's leading name vs the abstract alone (the names found before).
Reads ../shared/realworld. Run: .venv/bin/python benchmarks/qa_checks.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from paperatlas import Atlas, sources  # noqa: E402
from paperatlas.enrich import names as names_mod  # noqa: E402
from paperatlas.enrich import pipeline  # noqa: E402
from paperatlas.sources import ReadReport, kinds  # noqa: E402

REAL = ROOT.parent / "shared" / "realworld"


def _read_back(path: Path) -> tuple[int, int]:
    report = ReadReport()
    return len(list(sources.read(path, report))), report.skipped_total


def main() -> None:
    print(f"load: {os.getloadavg()}")
    files = sorted(p for p in REAL.iterdir() if p.name not in ("truth.jsonl", "README.md"))
    with tempfile.TemporaryDirectory() as tmp:
        atlas = Atlas(Path(tmp) / "a.db")
        atlas.add(files, list_name="realworld", enrich=False)
        rows = list(atlas.store.papers.iter())
        out = Path(tmp) / "all.bib"
        atlas.export("bibtex", out)
        atlas.close()
        keep = kinds.has_paper_abstract
        kinds.has_paper_abstract = lambda *a, **k: False
        before = _read_back(out)
        kinds.has_paper_abstract = keep
        after = _read_back(out)
        zotero = _read_back(REAL / "zotero_library.bib")
    print(
        f"BibTeX round trip of {len(rows)} stored papers: read back {after[0]} "
        f"(skipped {after[1]}); without the abstract rule {before[0]} (skipped {before[1]}); "
        f"zotero_library.bib {zotero[0]} papers (truth 230)"
    )

    t0 = time.process_time()
    with_title = [pipeline.extract_facts(r.get("title"), r["abstract"])["name"] for r in rows]
    t1 = time.process_time()
    keep = pipeline.with_title_name
    pipeline.with_title_name = lambda found, title: found
    alone = [pipeline.extract_facts(r.get("title"), r["abstract"])["name"] for r in rows]
    t2 = time.process_time()
    pipeline.with_title_name = keep
    heads = sum(1 for r in rows if names_mod.title_name(r.get("title")))
    replaced = sum(1 for a, b in zip(alone, with_title) if a and b and a != b)
    print(
        f"names: {sum(map(bool, with_title))} of {len(rows)} papers named with the title's "
        f"leading name, {sum(map(bool, alone))} from the abstract alone; {heads} titles lead "
        f"with a name, {replaced} names replaced; CPU {t1 - t0:.1f} s vs {t2 - t1:.1f} s"
    )


if __name__ == "__main__":
    main()
