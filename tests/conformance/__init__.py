"""A table-conformance harness: seeded deals played by keys on the real device, checked
against the truth.

A pretend table (:mod:`~tests.conformance.deal`) shuffles a real deck for every deal and
plays whole games through the simulator (:mod:`~tests.conformance.device`: gpiozero mock
pins, the input kit, the loop, the app, the durable store), on either input kit, reading
every screen and pressing the keys a player would (:mod:`~tests.conformance.harness`),
with scripted human mistakes. What the device records is followed entry by entry
(:mod:`~tests.conformance.follow`) against the truth (:mod:`~tests.conformance.truth`:
the same deal with every real card through the engine, changed only by what the mistakes and
the muggins rules change); every screen is checked against it, and so is the record the
device wrote (:mod:`~tests.conformance.record_check`). :mod:`~tests.conformance.runs`
plays many games and keeps the figures.
"""
