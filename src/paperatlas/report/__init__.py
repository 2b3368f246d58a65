"""Reports to share: a digest of a list or a collection, in Markdown or self-contained HTML."""
