"""Teaching and help, beside the rules core and below the app: discard advice and its review,
the pegging hint and the one look-ahead that judges a play, what a game teaches, practice
drills, and the rule help's topics. Every fact it speaks from is the engine's."""
