"""Example players for ``python -m ginclient --bot FILE.py:choose``."""
