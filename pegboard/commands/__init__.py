"""Subcommands of the ``pegboard`` command, one module each (see :mod:`pegboard.cli`).

What each command says of itself in ``--help`` is one table, :data:`COMMANDS`: the command
line lists every summary without importing a command, and a command's own parser is made
from its row before its module's ``register(parser)`` adds the arguments.
"""

from __future__ import annotations

from pegboard.rules.value import Value


class Command(Value):
    """A command's words: its summary in ``pegboard --help`` and the description on its own
    ``--help`` page (None: none, or its module sets one)."""

    __slots__ = ("description", "summary")
    __match_args__ = ("summary", "description")

    summary: str
    description: str | None

    def __init__(self, summary: str, description: str | None = None) -> None:
        setter = object.__setattr__
        setter(self, "summary", summary)
        setter(self, "description", description)


COMMANDS: dict[str, Command] = {
    "demo": Command("score a sample hand and show its count"),
    "score": Command(
        "count a hand or crib the way players say it aloud",
        "Score a show hand (4 cards, or 3 with --five-card) with its starter. "
        "Cards are rank then suit: 5H, TH or 10H, QC, A♠."),
    "peg": Command(
        "score a count in the play card by card",
        "Lay the cards of one count (since the last reset) in order; each card's "
        "running count and score is printed. The count may not pass 31."),
    "rules": Command(
        "explain a rule players often dispute (list the topics without an argument)",
        "Rule help. Without TOPIC, list the topics; with it, print that rule."),
    "stats": Command(
        "statistics of finished games (wins, skunks, averages, score race)",
        "Statistics per player or partnership from the store's finished games, or from "
        "record files with --record."),
    "advise": Command(
        "rank every discard by expected hand and crib points",
        "Give the cards you were dealt (6 for two players, 5 for three or four "
        "players or five-card cribbage) and whether the crib is yours. Each discard is "
        "ranked by its exact expected points: the hand over every starter, the crib over "
        "every starter and every card the others could lay away."),
    "review": Command(
        "the biggest mistakes of a game record by expected points lost, and counting",
        "List a game record's biggest mistakes by expected points lost "
        "(discards and pegging) and each player's counting accuracy."),
    "quiz": Command(
        "practise counting, discarding and pegging on random deals",
        "Drills on random deals: count a hand (answer the points), lay away to "
        "the crib (answer two cards, e.g. 5H KS), or peg (answer one card)."),
    "sim": Command(
        "play on the simulated device in this terminal",
        "The Pegboard device simulated in a terminal: the real app and gpiozero "
        "input code on mock pins, the OLED drawn to fit the terminal."),
    "run": Command(
        "run the device (buttons, OLED, LED board) from the config file",
        "Run Pegboard on the device: the input kit, the OLED and the LED board "
        "named in the config file."),
    "replay": Command(
        "replay a game record (JSON Lines) and tell the game deal by deal",
        "Replay a game record and print the game as players would say it."),
    # game's description is its module's docstring, which says the same for the reader
    "game": Command("start, record, undo and inspect games in the durable store"),
    "leds": Command("the LED pegboard: demo, flash, sim, svg"),
    # bringup's description is its module's docstring
    "bringup": Command("check each stage of the box at the bench: buttons, encoder, keypad, "
                       "oled, leds"),
    "web": Command(
        "serve the live scoreboard to browsers on the local network (read-only)",
        "Serve the game in progress and the finished games as a live web page (and "
        "JSON under /api/). Read-only: nothing served can change a game."),
    "club": Command(
        "publish a club night's results over MQTT and serve the standings",
        "Club night: boards publish confirmed results to an MQTT broker "
        "(mosquitto); the standings service ranks them live (docs/club.md)."),
}
"""Every subcommand (the module ``pegboard.commands.<name>``), in the order listed."""
