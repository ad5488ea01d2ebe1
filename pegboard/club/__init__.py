"""Club night: boards publish confirmed results over MQTT; a standings service ranks them.

- :mod:`~pegboard.club.scorecard`: a stored game read through the one record reader into
  the ACC scorecard line (the engine's facts rendered, nothing recomputed);
- :mod:`~pegboard.club.topics`: the topic names and the checks every message goes through;
- :mod:`~pegboard.club.outbox`: what a board still has to publish, and what the broker has
  acknowledged (kept durably);
- :mod:`~pegboard.club.publisher`: one board's store followed, its results published with
  QoS 1 until acknowledged, its table's live state retained, its availability a Last Will;
- :mod:`~pegboard.club.results` and :mod:`~pegboard.club.standings`: the service's SQLite
  results (idempotent) and the ACC standings;
- :mod:`~pegboard.club.journal` and :mod:`~pegboard.club.heal`: every decision appended to
  a journal before it commits, and a damaged results database rebuilt from it;
- :mod:`~pegboard.club.service` and :mod:`~pegboard.club.page`: the subscriber and the page.

docs/club.md describes the topics and payloads as an interchange format.
"""
