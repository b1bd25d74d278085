"""Serving the site for production on one machine: nginx in front of N ASGI workers
(``scripts/serve``, docs/deploy.md)."""
