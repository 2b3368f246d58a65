"""`paperatlas enrich` through the real entry point, and the facts it feeds to `ls`."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperatlas.enrich import pipeline

SAMPLE = Path(__file__).resolve().parent.parent / "examples" / "iclr2026_sample_list.txt"


@pytest.fixture
def cli(cli, monkeypatch):
    """The shared runner (conftest.py), facts only (no area model); (code, stdout)."""
    monkeypatch.setattr(pipeline, "_area_predictor", lambda: None)
    return lambda *args: cli(*args)[:2]


@pytest.mark.slow  # enriches a store three times
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
