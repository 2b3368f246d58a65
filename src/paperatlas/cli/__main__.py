"""`python -m paperatlas.cli ...`: the `paperatlas` command (what `open` starts its
background steps with, so they run on this interpreter and these sources)."""

from paperatlas.cli import main

main()
