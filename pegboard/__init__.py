"""Pegboard: an electronic cribbage scorekeeper for a real card table."""

from __future__ import annotations

__version__ = "0.1.0"
