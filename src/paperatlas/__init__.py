"""paperatlas: turn any conference paper list into a searchable, mapped, annotated atlas."""

# First of all: a `serve` worker process (it imports this package before anything else of
# ours) is tied to its server before the seconds of imports below.
from paperatlas.workers import tie_to_env_parent

tie_to_env_parent()

from paperatlas.api import Atlas  # noqa: E402 - after the tie above
from paperatlas.filters import Filters  # noqa: E402
from paperatlas.paper import Paper  # noqa: E402

__all__ = ["Atlas", "Filters", "Paper"]
__version__ = "0.1.0"
