"""Benchmark: the real-world paper lists in ../shared/realworld against their truth.jsonl.

    .venv/bin/python benchmarks/realworld.py [--realworld DIR] [--base /tmp/paperatlas-base/src] [--src SRC]

For every file: papers stored by the real `Atlas.add(..., enrich=False)` into a fresh temporary
store, against the true count; papers the readers yield (`sources.read`); and of the 8 sample
papers of truth.jsonl how many are found (by normalised title, else by the start of the
abstract) with their link (same arXiv id / DOI / OpenReview id, else the same URL) and their
first author (same name words, in any order: "He, Kaiming" = "Kaiming He"; an "et al." after
it left out on either side). The same is
measured with the starting code (`--base`, run in a subprocess with its PYTHONPATH) as the
baseline column. Target per file: count within 2% or 2 papers, >= 7/8 samples whole. A file
not read whole for which `add` gave neither a warning nor an error is a silent failure; a file
read whole that `add` warned about anyway is a false warning (both counted).

Files are split into a tuning set and a held-out set (`HELD_OUT`), reported apart.
`--dump FILE` writes one JSON line per file (whole or not, `add`'s warnings and error, and the
self-check's features of the reading: `scripts/build_selfcheck.py` learns from them);
`--no-base` measures the new code alone.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DIR = REPO.parent / "shared" / "realworld"
DEFAULT_BASE = Path("/tmp/paperatlas-base/src")
# Checked only at the end, as unseen layouts (one per reader family not used for tuning).
HELD_OUT = ("3dv2026_schedule.csv", "arxiv_2025-09-18.jsonl", "deep_review_refs.json", "ppi_review.ris")


# -- matching (same code for both sides) ------------------------------------------------


def norm(text: str | None) -> str:
    text = unicodedata.normalize("NFKC", text or "").lower()
    return " ".join(re.findall(r"\w+", text))


def ids_of(url: str | None) -> set[str]:
    url = (url or "").strip()
    out = set()
    if m := re.search(r"arxiv\.org/(?:abs|pdf|html)/([\w.\-/]+?)(?:v\d+)?(?:\.pdf)?/?$", url):
        out.add("arxiv:" + m.group(1))
    if m := re.search(r"(10\.\d{4,9}/[^\s\"<>]+)", url):
        out.add("doi:" + m.group(1).lower().rstrip("."))
    if m := re.search(r"openreview\.net/(?:forum|pdf)\?id=([\w-]+)", url):
        out.add("openreview:" + m.group(1))
    bare = re.sub(r"^https?://(www\.)?", "", url).rstrip("/")
    if bare:
        out.add("url:" + bare.lower())
    return out


# "et al." after a first author is the list's shorthand for the others, not part of the name
# (a truth line may keep it where a reader drops it, or the reverse).
_ET_AL = re.compile(r"[,\s]*\bet\.?\s*al\b\.?\s*$", re.IGNORECASE)


def same_author(truth: str, name: str) -> bool:
    truth, name = _ET_AL.sub("", truth), _ET_AL.sub("", name)
    return sorted(norm(truth).split()) == sorted(norm(name).split())


def check_samples(papers: list[dict], samples: list[dict]) -> dict[str, int]:
    by_title: dict[str, list[dict]] = {}
    for p in papers:
        by_title.setdefault(norm(p.get("title")), []).append(p)
    found = linked = authored = whole = 0
    for s in samples:
        cands = by_title.get(norm(s["title"]), []) if s.get("title") else []
        if not cands and s.get("abstract_start"):
            start = norm(s["abstract_start"])[:40]
            cands = [p for p in papers if norm(p.get("abstract"))[: len(start)] == start and start]
        if not cands:
            continue
        found += 1
        scores = []
        for p in cands:
            urls = list(p.get("urls") or []) + list(p.get("code_urls") or [])
            mine = set().union(*(ids_of(u) for u in urls)) if urls else set()
            link_ok = not s.get("link") or bool(ids_of(s["link"]) & mine)
            authors = p.get("authors") or []
            author_ok = not s.get("authors") or (bool(authors) and same_author(s["authors"][0], authors[0]))
            scores.append((link_ok and author_ok, link_ok, author_ok))
        both, link_ok, author_ok = max(scores)
        linked += link_ok
        authored += author_ok
        whole += both
    return {"found": found, "linked": linked, "authored": authored, "whole": whole}


# -- one file, in this interpreter (run as a subprocess with either code on PYTHONPATH) ---


def measure(path: Path, samples: list[dict]) -> dict:
    from paperatlas import Atlas, sources

    out: dict = {}
    start = time.perf_counter()
    report = sources.ReadReport() if hasattr(sources, "ReadReport") else None  # older code: none
    try:
        read_papers = [p.to_dict() for p in (sources.read(path, report) if report else sources.read(path))]
        out["read"] = len(read_papers)
        out["read_samples"] = check_samples(read_papers, samples)
    except Exception as exc:  # the baseline refuses some files
        out["read"], out["read_error"] = 0, str(exc).splitlines()[0][:120]
        out["read_samples"] = check_samples([], samples)
    judgement = getattr(report, "judgement", None)
    if judgement is not None:  # the self-check's features of this reading (sources.selfcheck)
        out["features"], out["chance"] = judgement.features, judgement.chance
    with tempfile.TemporaryDirectory() as tmp:
        atlas = Atlas(Path(tmp) / "atlas.db")
        try:
            report = atlas.add([path], list_name="rw", enrich=False)
            errors = report.errors
            out["warnings"] = [w for f in report.files for w in f.warnings]
            stored = _list_papers(atlas, "rw")
        except Exception as exc:
            errors, stored = [str(exc).splitlines()[0]], []
        finally:
            atlas.close()
    out["stored"] = len(stored)
    out["stored_with"] = {
        "title": sum(bool((p.get("title") or "").strip()) for p in stored),
        "abstract": sum(bool((p.get("abstract") or "").strip()) for p in stored),
        "link": sum(bool(p.get("urls")) for p in stored),  # paper links (code links apart)
        "authors": sum(bool(p.get("authors")) for p in stored),
    }
    out["stored_error"] = errors[0][:120] if errors else None
    out["stored_samples"] = check_samples(stored, samples)
    out["seconds"] = round(time.perf_counter() - start, 2)
    return out


def _list_papers(atlas, name: str) -> list[dict]:
    try:
        from paperatlas.filters import Filters
    except ImportError:  # the starting code took the list as a keyword
        return atlas.papers(list_name=name)
    return atlas.papers(filters=Filters(list_name=name))


def run_side(src: Path, path: Path, samples: list[dict]) -> dict:
    env = {**os.environ, "PYTHONPATH": str(src)}
    proc = subprocess.run(
        [sys.executable, __file__, "--measure", str(path)],
        input=json.dumps(samples),
        capture_output=True,
        text=True,
        env=env,
        cwd=str(REPO),
        timeout=1800,
    )
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["?"])[-1][:120]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def within(count: int, truth: int) -> bool:
    return abs(count - truth) <= max(2, 0.02 * truth)


def whole(t: dict, res: dict) -> bool:
    return (
        within(res.get("stored", -99), t["papers"]) and (res.get("stored_samples") or {}).get("whole", 0) >= 7
    )


def _base(hidden: bool, figure: int) -> str:
    return "" if hidden else f" (base {figure})"


def _dump(out: Path, folder: Path, rows: list) -> None:
    with out.open("w", encoding="utf-8") as fh:
        for t, new, _ in rows:
            record = {
                "folder": str(folder),
                "file": t["file"],
                "whole": whole(t, new),
                "warnings": new.get("warnings") or [],
                "error": new.get("stored_error") or new.get("error"),
                "features": new.get("features"),
                "chance": new.get("chance"),
            }
            fh.write(json.dumps(record) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--realworld", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--base", type=Path, default=DEFAULT_BASE)
    parser.add_argument(
        "--src",
        type=Path,
        default=REPO / "src",
        help="the code measured as new (default: the src beside this script, whatever PYTHONPATH says)",
    )
    parser.add_argument("--measure", type=Path)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--no-base", action="store_true", help="measure the new code alone")
    parser.add_argument(
        "--dump",
        type=Path,
        help="write per-file results as JSON Lines: whole or not, the warnings and errors of add, "
        "and the self-check's features of the reading (scripts/build_selfcheck.py learns from them)",
    )
    args = parser.parse_args()
    if args.measure:
        samples = json.loads(sys.stdin.read())
        print(json.dumps(measure(args.measure, samples)))
        return
    truth = [
        json.loads(line) for line in (args.realworld / "truth.jsonl").read_text().splitlines() if line.strip()
    ]
    if args.only:
        truth = [t for t in truth if t["file"] in args.only]
    rows = []
    for t in truth:
        path = args.realworld / t["file"]
        new = run_side(args.src, path, t["samples"])
        base = {} if args.no_base else run_side(args.base, path, t["samples"])
        rows.append((t, new, base))
        print(f"  measured {t['file']}", file=sys.stderr)
    if args.dump:
        _dump(args.dump, args.realworld, rows)
    header = (
        f"{'file':26} {'true':>5} | {'stored':>6} {'base':>5} | {'read':>5} {'base':>5} | "
        f"{'samples whole (found/link/author)':>34} {'base':>14} | ok"
    )
    for title, selected in (
        ("tuning set", [r for r in rows if r[0]["file"] not in HELD_OUT]),
        ("held-out set", [r for r in rows if r[0]["file"] in HELD_OUT]),
    ):
        if not selected:
            continue
        print(f"\n{title}\n{header}\n{'-' * len(header)}")
        ok_new = ok_base = silent_new = silent_base = false_new = false_base = 0
        for t, new, base in selected:
            s_new = new.get("stored_samples") or {}
            s_base = base.get("stored_samples") or {}
            good, good_base = whole(t, new), whole(t, base)
            ok_new += good
            ok_base += good_base
            # a list not read whole with neither a warning nor an error from `add`: silent
            silent_new += not good and not new.get("warnings") and not new.get("stored_error")
            silent_base += not good_base and not base.get("warnings") and not base.get("stored_error")
            # a list read whole that `add` still warned about: a false warning
            false_new += good and bool(new.get("warnings"))
            false_base += good_base and bool(base.get("warnings"))
            sample = (
                f"{s_new.get('whole', 0)}/8 ({s_new.get('found', 0)}/{s_new.get('linked', 0)}/"
                f"{s_new.get('authored', 0)})"
            )
            sample_base = (
                f"{s_base.get('whole', 0)}/8 ({s_base.get('found', 0)}/"
                f"{s_base.get('linked', 0)}/{s_base.get('authored', 0)})"
            )
            print(
                f"{t['file']:26} {t['papers']:>5} | {new.get('stored', 'err'):>6} "
                f"{base.get('stored', 'err'):>5} | {new.get('read', 'err'):>5} "
                f"{base.get('read', 'err'):>5} | {sample:>34} {sample_base:>14} | "
                f"{'yes' if good else 'NO'}{'' if good_base else ' (base no)'}"
            )
            for side, res in (("new", new), ("base", base)):
                for key in ("error", "stored_error", "read_error"):
                    if res.get(key):
                        print(f"    {side} {key}: {res[key]}")
            if not good and new.get("warnings"):
                print(f"    new warning: {new['warnings'][0][:110]}")
            rs = new.get("read_samples") or {}
            if rs.get("whole") != s_new.get("whole"):
                print(f"    new reader alone: {rs.get('whole')}/8 samples whole")
        nb = args.no_base
        print(
            f"files read whole: {ok_new}/{len(selected)}"
            + ("" if nb else f" (base {ok_base}/{len(selected)})")
        )
        print(
            f"silent failures (not whole, no warning or error from add): {silent_new}"
            + _base(nb, silent_base)
        )
        print(f"false warnings (read whole, yet a warning from add): {false_new}" + _base(nb, false_base))
    print("\nstored papers with title / abstract / link / authors: new (base) vs truth")
    for t, new, base in rows:
        cells = []
        for key in ("title", "abstract", "link", "authors"):
            mine = (new.get("stored_with") or {}).get(key, "-")
            theirs = (base.get("stored_with") or {}).get(key, "-")
            cells.append(f"{key} {mine} ({theirs}) / {t['with_' + key]}")
        print(f"{t['file']:26} " + " | ".join(cells))


if __name__ == "__main__":
    main()
