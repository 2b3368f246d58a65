"""The paper filters of a page's query string as one `Filters` (`page_filters`, a FastAPI
dependency of /search, /papers and /api/search), and back (`filter_query`: what a page's
links and form carry on, so that the next page keeps every filter).

The parameters are `list`, `area`, `kind`, `decision`, `has_code` (1 or 0), `tag` and
`state` (paperatlas/filters.py says what each means). A value no paper can have is a 400
with one line; a list that does not exist is a 404."""

from __future__ import annotations

from fastapi import HTTPException, Request

from paperatlas.filters import FilterError, Filters
from paperatlas.web.context import context
from paperatlas.web.params import Name

# a page's parameter for each field of Filters (`list`: the name people see in URLs)
PARAMETERS = {"list_name": "list"}


def page_filters(
    request: Request,
    list: Name = None,
    area: Name = None,
    kind: Name = None,
    decision: Name = None,
    has_code: Name = None,
    tag: Name = None,
    state: Name = None,
) -> Filters:
    try:
        filters = Filters.parse(
            list_name=list, area=area, kind=kind, decision=decision, has_code=has_code, tag=tag, state=state
        )
    except FilterError as exc:
        raise HTTPException(400, str(exc)) from None
    context(request).check_filters(filters)
    return filters


def filter_query(filters: Filters) -> dict[str, str]:
    """The filters as the query parameters `page_filters` reads (only those set)."""
    query = {}
    for name, value in filters.given().items():
        query[PARAMETERS.get(name, name)] = ("1" if value else "0") if isinstance(value, bool) else value
    return query
