"""A terminal client and bot runner for the Gin Rummy site's public JSON API.

Only the standard library: ``python -m ginclient --server URL --token T <command>``.
See docs/api.md.
"""

from __future__ import annotations

from ginclient.api import ApiError, Client

__all__ = ["ApiError", "Client"]
