"""Bea offline (docs/offline.md; unfinished, see there): a match against Bea in the browser with
no server, running the very same ``games/engine`` and ``games/ai`` through Pyodide (CPython in
WebAssembly, vendored from npm by scripts/vendor_pyodide.sh).

``bundle`` is the code a browser runs, read from this repository's own files when asked (plus a
stand-in for the two Django translation functions the AI's explanations import); ``driver`` is
the loop of an offline match (the player's action, then Bea's until it is the player's turn
again), run by the browser and, in the tests, by the server on the same seeds; ``views`` serves
the page and the bundle.
"""
