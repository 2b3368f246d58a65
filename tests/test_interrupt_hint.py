"""An interrupted command says how to resume: Ctrl-C ends it with exit 130 and one line
saying that finished work is kept and the same command resumes."""

from __future__ import annotations

import pytest

from paperatlas.api import Atlas

SAMPLE = "examples/iclr2026_sample_list.txt"


def _interrupt(*args: object, **kwargs: object) -> None:
    raise KeyboardInterrupt


@pytest.mark.parametrize(
    ("method", "command"),
    [("embed_for_search", ["embed"]), ("enrich", ["enrich"]), ("build_map", ["map"])],
)
def test_ctrl_c_in_a_long_step_says_how_to_resume(cli, monkeypatch, method, command):
    code, _, _ = cli("add", SAMPLE, "--no-enrich")
    assert code == 0
    monkeypatch.setattr(Atlas, method, _interrupt)
    monkeypatch.setattr(Atlas, "ensure_vectors", lambda *a, **k: None)
    code, _, err = cli(*command)
    assert code == 130
    assert "interrupted: finished work is kept; run the same command again to resume" in err
