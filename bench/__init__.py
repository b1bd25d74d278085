"""Benchmarks: each prints what it measured and never asserts a time."""
