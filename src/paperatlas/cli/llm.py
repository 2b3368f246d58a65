"""`paperatlas llm summarize|title|title-en`: a model the user brings, used only when asked."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from paperatlas.cli.common import DbOption, app, console, open_atlas, require_list

llm_app = typer.Typer(
    help="Ask your own OpenAI-compatible model (PAPERATLAS_LLM_BASE_URL, PAPERATLAS_LLM_MODEL, "
    "PAPERATLAS_LLM_API_KEY) for Chinese summaries and titles; cached, resumable.",
    no_args_is_help=True,
)
app.add_typer(llm_app, name="llm")

ListOption = Annotated[str | None, typer.Option("--list", "-l", help="Only papers of this list.")]
ConcurrencyOption = Annotated[
    int, typer.Option("--concurrency", "-c", min=1, max=256, help="Calls at a time.")
]
LimitOption = Annotated[int | None, typer.Option("--limit", min=1, help="Ask for at most this many papers.")]
EstimateOption = Annotated[
    bool, typer.Option("--estimate", help="Say how many papers, tokens and how long; ask nothing.")
]


def _run(
    task: str,
    concurrency: int,
    limit: int | None,
    only_estimate: bool,
    list_name: str | None,
    db: Path | None,
) -> None:
    atlas = open_atlas(db)
    require_list(atlas, list_name)
    plan = atlas.llm_estimate(task, concurrency, list_name, limit)
    when = (
        f"about {plan.seconds / 60:.1f} min at {concurrency} calls at a time (from {plan.measured_calls} calls so far)"
        if plan.seconds is not None
        else "time unknown until some calls are made (try --limit 16)"
    )
    console.print(
        Text(
            f"{task} with {plan.model}: {plan.papers:,} papers without an answer, "
            f"~{plan.prompt_tokens:,} prompt tokens + up to {plan.answer_tokens:,} answer tokens; {when}"
        )
    )
    if only_estimate or not plan.papers:
        return
    report = atlas.llm_run(task, concurrency, list_name, limit, progress=sys.stderr.isatty())
    reasons = ", ".join(f"{why} {n}" for why, n in report.reasons.most_common())
    console.print(
        Text(
            f"asked {report.asked:,}: {report.accepted:,} accepted, {report.rejected:,} rejected"
            + (f" ({reasons})" if reasons else "")
            + (f", {report.failed:,} failed (asked again next run)" if report.failed else "")
            + f"; {report.tokens:,} tokens in {report.seconds:.1f} s"
        )
    )


@llm_app.command("summarize")
def llm_summarize(
    concurrency: ConcurrencyOption = 8,
    limit: LimitOption = None,
    estimate: EstimateOption = False,
    list_name: ListOption = None,
    db: DbOption = None,
) -> None:
    """A one-sentence Chinese summary of every paper (shown on its page until then: the offline card)."""
    _run("summarize", concurrency, limit, estimate, list_name, db)


@llm_app.command("title")
def llm_title(
    concurrency: ConcurrencyOption = 8,
    limit: LimitOption = None,
    estimate: EstimateOption = False,
    list_name: ListOption = None,
    db: DbOption = None,
) -> None:
    """A Chinese title for every paper."""
    _run("title", concurrency, limit, estimate, list_name, db)


@llm_app.command("title-en")
def llm_title_en(
    concurrency: ConcurrencyOption = 8,
    limit: LimitOption = None,
    estimate: EstimateOption = False,
    list_name: ListOption = None,
    db: DbOption = None,
) -> None:
    """An English title for every paper whose list gives none."""
    _run("title-en", concurrency, limit, estimate, list_name, db)
