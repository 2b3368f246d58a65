"""Results of a model the user brings (llm/): per (paper, task, model, prompt version) the
answer, whether it was accepted (and why not), its tokens and seconds."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from paperatlas.store.connection import StorePart


class LlmRows(StorePart):
    """The `llm_results` table. An atlas opened read-only before the migration that made it
    has none: it reads as empty (a read-only open does not upgrade, schema.READABLE_FROM)."""

    def _has_llm_results(self) -> bool:
        return self._has_table("llm_results")

    def done(self, task: str, model: str, prompt: str) -> set[str]:
        """Ids of the papers that have an answer (accepted or not) for this task, model and prompt."""
        if not self._has_llm_results():
            return set()
        rows = self.conn.execute(
            "SELECT paper_id FROM llm_results WHERE task = ? AND model = ? AND prompt = ?",
            (task, model, prompt),
        )
        return {pid for (pid,) in rows}

    def put_result(
        self,
        paper_id: str,
        task: str,
        model: str,
        prompt: str,
        output: str,
        accepted: bool,
        reason: str | None,
        tokens: int,
        seconds: float,
    ) -> None:
        """One answer, in its own transaction: an interrupted run keeps every answer it got."""
        with self._store.transaction(fill_keys=False) as conn:
            conn.execute(
                "INSERT OR REPLACE INTO llm_results(paper_id, task, model, prompt, output, accepted, reason, "
                "tokens, seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (paper_id, task, model, prompt, output, int(accepted), reason, tokens, seconds),
            )

    def any_accepted(self) -> bool:
        """Whether the atlas holds any accepted answer (most hold none: a page asks this once
        per commit instead of asking for each paper's answers to every task)."""
        if not self._has_llm_results():
            return False
        return (
            self.conn.execute("SELECT 1 FROM llm_results WHERE accepted = 1 LIMIT 1").fetchone() is not None
        )

    def accepted(self, ids: Iterable[str], task: str) -> dict[str, dict[str, Any]]:
        """Per paper, its newest accepted answer for `task` (any model): output, model, prompt."""
        ids = list(ids)
        out: dict[str, dict[str, Any]] = {}
        if not self._has_llm_results():
            return out
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self.conn.execute(
                f"SELECT paper_id, output, model, prompt FROM llm_results WHERE accepted = 1 AND task = ? "
                f"AND paper_id IN ({marks}) ORDER BY created_at, rowid",
                (task, *chunk),
            )
            for pid, output, model, prompt in rows:
                out[pid] = {"output": output, "model": model, "prompt": prompt}
        return out

    def stats(self, task: str, model: str, prompt: str) -> dict[str, float]:
        """Answers, rejected answers, mean tokens and mean seconds of a call so far."""
        if not self._has_llm_results():
            return {"answers": 0, "rejected": 0, "tokens": 0, "seconds": 0}
        row = self.conn.execute(
            "SELECT count(*), coalesce(sum(accepted = 0), 0), coalesce(avg(tokens), 0), coalesce(avg(seconds), 0) "
            "FROM llm_results WHERE task = ? AND model = ? AND prompt = ?",
            (task, model, prompt),
        ).fetchone()
        return {"answers": row[0], "rejected": row[1], "tokens": row[2], "seconds": row[3]}
