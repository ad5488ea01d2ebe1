"""The cribbage rules core: pure functions and values, no I/O, no clock, no randomness.

The package itself holds nothing: a name is imported from its module (``pegboard.rules.cards``,
``pegboard.rules.show``...), so whatever imports one part of the engine (a value's base,
the cards) loads that part alone, not the scorers and the spoken counts with it.
"""
