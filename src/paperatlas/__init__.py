"""paperatlas: turn any conference paper list into a searchable, mapped, annotated atlas."""

from paperatlas.api import Atlas
from paperatlas.paper import Paper

__all__ = ["Atlas", "Paper"]
__version__ = "0.1.0"
