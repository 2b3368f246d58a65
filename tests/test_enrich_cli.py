"""`paperatlas enrich` through the real entry point, and the facts it feeds to `ls`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from paperatlas.cli import app
from paperatlas.cli.common import run_app
from paperatlas.enrich import pipeline

SAMPLE = Path(__file__).resolve().parent.parent / "examples" / "iclr2026_sample_list.txt"


@pytest.fixture
def cli(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr(pipeline, "_area_predictor", lambda: None)  # facts only, no model
    db = tmp_path / "atlas.db"

    def run(*args: str) -> tuple[int, str]:
        monkeypatch.setattr(sys, "argv", ["paperatlas", *map(str, args), "--db", str(db)])
        code = run_app(app)
        return code, capsys.readouterr().out

    return run


def test_enrich_counts_skips_and_forces(cli):
    assert cli("add", SAMPLE, "--no-enrich")[0] == 0
    code, out = cli("enrich")
    assert code == 0
    assert "enriched 19 of 19 papers" in out and "with code links" in out
    code, out = cli("enrich")
    assert "enriched 0 of 19 papers (19 unchanged, skipped)" in out
    code, out = cli("enrich", "--force")
    assert "enriched 19 of 19 papers" in out


def test_facts_drive_ls_filters(cli):
    cli("add", SAMPLE, "--no-enrich")
    cli("enrich")
    code, out = cli("ls", "--kind", "benchmark")
    assert code == 0 and "CIMemories" in out and "KaLM-Embedding" not in out
    code, out = cli("ls", "--has-code")
    assert "DM4CT" in out and "CIMemories" not in out
