"""Keys: every input event named as one of a few keys, and the key rules lists share.

The transition table (:mod:`pegboard.app.transitions`) says what each key does on each
screen; this module turns an input event into its key and holds the moves common to every
list and number screen.
"""

from __future__ import annotations

import enum

from pegboard.app.inputs import Button, InputEvent, KnobTurn, Press, RankKey
from pegboard.rules.cards import Rank


class Key(enum.Enum):
    """What the player did, whatever the kit: a turn of the knob, a press or a hold of a
    button, a rank key pressed or held (keypad kit)."""

    TURN = "turn"
    OK = "ok"
    HOLD_OK = "hold ok"
    GO = "go"
    HOLD_GO = "hold go"
    UNDO = "undo"
    HOLD_UNDO = "hold undo"
    MENU = "menu"
    HOLD_MENU = "hold menu"
    RANK = "rank"
    HOLD_RANK = "hold rank"


_PRESSES = {
    (Button.OK, False): Key.OK, (Button.OK, True): Key.HOLD_OK,
    (Button.GO, False): Key.GO, (Button.GO, True): Key.HOLD_GO,
    (Button.UNDO, False): Key.UNDO, (Button.UNDO, True): Key.HOLD_UNDO,
    (Button.MENU, False): Key.MENU, (Button.MENU, True): Key.HOLD_MENU,
}


def key_of(event: InputEvent) -> Key | None:
    """The key an input event is (None for events that are not a player's input)."""
    if isinstance(event, KnobTurn):
        return Key.TURN
    if isinstance(event, Press):
        return _PRESSES[(event.button, event.long)]
    if isinstance(event, RankKey):
        return Key.HOLD_RANK if event.long else Key.RANK
    return None


def steps(event: InputEvent) -> int:
    """Detents turned (0 for anything else)."""
    return event.steps if isinstance(event, KnobTurn) else 0


def list_move(index: int, event: InputEvent, size: int) -> tuple[int, int | None]:
    """A list: turning or GO moves the highlight (wrapping), OK or a rank key (row N, A = 1)
    chooses. Returns the new highlight and the chosen row (None when nothing was chosen)."""
    if size <= 0:
        return 0, None
    index %= size
    key = key_of(event)
    if key is Key.TURN:
        return (index + steps(event)) % size, None
    if key is Key.GO:
        return (index + 1) % size, None
    if key is Key.OK:
        return index, index
    if key is Key.RANK and isinstance(event, RankKey) and int(event.rank) <= size:
        row = int(event.rank) - 1
        return row, row
    return index, None


def number_edit(number: int, event: InputEvent, top: int) -> int:
    """A number being entered: turning adds or takes away; rank keys type digits (A = 1,
    10 = 0), a digit that would pass ``top`` starting the number again."""
    if isinstance(event, KnobTurn):
        return max(0, min(top, number + event.steps))
    if isinstance(event, RankKey) and not event.long and int(event.rank) <= 10:
        digit = 1 if event.rank is Rank.ACE else int(event.rank) % 10
        typed = number * 10 + digit
        return typed if typed <= top else digit
    return number
