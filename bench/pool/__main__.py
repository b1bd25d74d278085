"""``python -m bench.pool``: the quick-pairing benchmark (bench/pool/run.py)."""

from bench.pool.run import main

main()
