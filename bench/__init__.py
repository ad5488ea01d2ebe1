"""Benchmarks: ``python -m bench`` (or ``make bench``) prints every figure with the core count."""
