"""The site's plumbing that apps import: refusals, limits, parsers, after-commit group
sends, what sockets share (origins, sign-in).

It imports nothing of the apps or of the rest of ``ginsite`` (a contract in pyproject.toml)."""
