"""The input bench's user: the fewest inputs that enter a card on the picker on screen.

The plan reads the wheel the screen shows (and, for the suit facts a hold reveals, the
picker's own list of them) and finds the shortest way round to the card, a GO jump included;
every input is then fed through the app's real ``step`` like any other.
"""

from __future__ import annotations

from pegboard.app import show, table, wheels
from pegboard.app.inputs import Button, InputEvent, KnobTurn, Press, RankKey
from pegboard.app.machine import AppState, step, view
from pegboard.app.open_hands import open_hands
from pegboard.app.picker import Slot, rank_label
from pegboard.app.state import CardEntry, Claiming, Reading, Wheel, WheelScreen
from pegboard.app.suit_facts import FLUSH_OF, SuitFact
from pegboard.rules.cards import Card, Rank
from pegboard.rules.value import replace

OK = Press(Button.OK)
HOLD_OK = Press(Button.OK, long=True)
GO = Press(Button.GO)
HOLD_GO = Press(Button.GO, long=True)
SLOW = 0.5
"""Seconds between the detents of a slow turn of the knob (and between other inputs)."""
FAST = 0.05
"""Seconds between the detents of a quick turn of the knob."""


def _label_rank(label: str) -> str:
    return label.split()[0].rstrip("\u2663\u2666\u2665\u2660")  # a named card: its rank


def _bare_rank(label: str) -> str:
    """The rank of a wheel label, its suit sign dropped ("5♥" -> "5")."""
    word = _label_rank(label)
    return word[:-1] if word[-1] in "♣♦♥♠" else word


def wanted_facts(flush: bool, nobs: bool, last: bool = False, five: bool = False,
                 size: int = 4) -> tuple[SuitFact, ...]:
    """The suit facts the wheel must show to enter a card with its true facts (a hand of
    ``size`` cards: its last card's whole flush, one longer with the starter's suit)."""
    facts = [SuitFact.NOBS] if nobs else []
    if flush:
        facts.append(FLUSH_OF[size + five] if last else SuitFact.IN_FLUSH)
    return tuple(facts)


def table_slots(state: AppState) -> list[Slot] | None:
    """The places of the card wheel on screen (None when no wheel is up)."""
    screen, session = state.screen, state.session
    if not isinstance(screen, WheelScreen) or session is None:
        return None
    found = wheels.table_wheel(session.state, table.goes_this_deal(session), screen.pending,
                               screen.anchor, open_hands=open_hands(state))
    return found[1] if found is not None else None


def card_inputs(
    state: AppState, card: Card, flush: bool, nobs: bool, *, last: bool = False,
    five: bool = False, label: str | None = None,
) -> list[InputEvent]:
    """The fewest inputs that enter ``card`` (with these suit facts) on the current picker.

    The plan reads the wheel the screen shows (and, for the suit facts a hold reveals, the
    picker's own list of them); it is then fed through ``step`` like any other input."""
    # On the keypad a rank key passes straight through the last notice to the wheel.
    through = passes_through(state)
    shown = show.close(state, state.screen)[0] if through else state  # type: ignore[arg-type]
    pv = view(shown).picker
    slots = table_slots(shown)
    assert pv is not None and slots is not None, view(state)
    want = wanted_facts(flush, nobs, last, five)
    base = rank_label(card.rank)
    of_rank = [i for i, slot in enumerate(slots) if _bare_rank(slot[0].label) == base]
    assert of_rank, (card, pv.options)
    target, fact = of_rank[0], 0
    for i in of_rank:
        named = [o.label for o in slots[i]]
        facts = [o.facts for o in slots[i]]
        if label is not None and label in named:  # a card named with its suit
            target, fact = i, named.index(label)
            break
        if want in facts or card.pretty in named:
            target, fact = i, facts.index(want) if want in facts else named.index(card.pretty)
            break
    # An open hand's wheel names each card with its suit: the very card is the one to enter.
    exact = [i for i in of_rank if slots[i][0].card == card]
    if exact and slots[exact[0]][0].label == card.pretty:
        target, fact = exact[0], 0
    if state.keypad:
        if fact == 0:
            return [RankKey(card.rank)]
        if fact == 1 and len(slots[target]) == 2 and len(of_rank) == 1:
            return [RankKey(card.rank, long=True)]  # the rank's one fact: the hold enters it
        return [*[RankKey(card.rank, long=True)] * fact, OK]
    moves = wheel_path(shown, pv.index, target)
    return [*moves, *[HOLD_OK] * fact, OK]


_JUMPS: dict[tuple[object, ...], int | None] = {}


def go_jump(state: AppState, wheel: tuple[object, ...], index: int,
            key: InputEvent = GO) -> int | None:
    """Where GO moves the cursor of the wheel on screen (``wheel``: what the screen shows)
    from ``index``, found by feeding GO to the real ``step``; None when GO does something
    else there, such as saying go in the play. Remembered by what the screen shows, since the
    same wheel always jumps the same way."""
    memo = (*wheel, index, key)
    if memo not in _JUMPS:
        assert isinstance(state.screen, WheelScreen)
        at = replace(state, screen=replace(state.screen, wheel=Wheel(index)))
        after, _ = step(at, key, 0.0)
        moved = view(after).picker
        same = after.session is at.session and moved is not None
        same = same and moved.options == wheel[-1]  # type: ignore[union-attr]
        _JUMPS[memo] = moved.index if same and moved is not None else None
    return _JUMPS[memo]


def wheel_path(state: AppState, start: int, target: int) -> list[InputEvent]:
    """The fewest wheel moves (a detent either way, or GO where it jumps) from ``start`` to
    ``target``."""
    assert isinstance(state.screen, WheelScreen)
    shown = view(replace(state, screen=replace(state.screen, wheel=Wheel(start))))
    pv = shown.picker
    assert pv is not None
    wheel = (shown.screen, shown.title, shown.hint, pv.prompt, pv.options)
    n = len(pv.options)
    paths: dict[int, list[InputEvent]] = {start: []}
    queue = [start]
    for index in queue:
        if index == target:
            break
        steps: list[tuple[int | None, InputEvent]] = [
            ((index + 1) % n, KnobTurn(1)), ((index - 1) % n, KnobTurn(-1)),
            (go_jump(state, wheel, index), GO),
            (go_jump(state, wheel, index, HOLD_GO), HOLD_GO),
        ]
        for nxt, move in steps:
            if nxt is not None and nxt not in paths:
                paths[nxt] = [*paths[index], move]
                queue.append(nxt)
    return paths[target]


_DIALS: dict[tuple[Claiming, int], list[tuple[InputEvent, float]]] = {}


def claim_path(state: AppState, points: int) -> list[tuple[InputEvent, float]]:
    """The fewest detents (each with the gap before it: a slow or a quick one) that turn the
    claim dial on screen to ``points``, found by feeding detents to the real ``step`` (its
    fast turns, its ends) breadth first. Remembered by where the dial stands, since the dial
    turns alike whatever is being claimed."""
    screen = state.screen
    assert isinstance(screen, Claiming)
    memo = (screen, points)
    if memo in _DIALS:
        return _DIALS[memo]
    now = state.last_input or 0.0

    def place(at: AppState, when: float) -> tuple[object, ...]:
        # What the dial is, with its times relative to now (a path is the same later on).
        dial = at.screen
        assert isinstance(dial, Claiming)
        since = None if dial.turned_at is None else round(when - dial.turned_at, 6)
        return dial.number, since, dial.typed

    start = (state, now, list[tuple[InputEvent, float]]())
    seen = {place(state, now)}
    queue = [start]
    found: list[tuple[InputEvent, float]] | None = None
    for at, when, path in queue:
        dial = at.screen
        assert isinstance(dial, Claiming)
        if dial.number == points:
            found = path
            break
        for way in (1, -1):
            for gap in (SLOW, FAST):
                after, _ = step(at, KnobTurn(way), when + gap)
                if not isinstance(after.screen, Claiming):
                    continue
                key = place(after, when + gap)
                if key not in seen:
                    seen.add(key)
                    queue.append((after, when + gap, [*path, (KnobTurn(way), gap)]))
    assert found is not None, (screen, points)
    _DIALS[memo] = found
    return found


def entry_inputs(state: AppState, label: str) -> list[InputEvent]:
    """The fewest inputs that choose ``label`` on a card entry's wheel (a player's dealt cards:
    the rank, then the suit; the cards laid away): on the knob the shorter way round, then
    OK (GO's jumps are not used: an upper bound); on the keypad the rank key, a tap for the
    wheel's first card of that rank, else held until the wanted one shows (the holds fed to
    the real ``step``: the first moves off the card the wheel rests on) and tapped."""
    pv = view(state).picker
    assert isinstance(state.screen, CardEntry) and pv is not None, view(state)
    target = pv.options.index(label)
    if state.keypad:
        rank = next(r for r in Rank if rank_label(r) == _bare_rank(label))
        same = [i for i, option in enumerate(pv.options)
                if _bare_rank(option) == _bare_rank(label)]
        if same.index(target) == 0:
            return [RankKey(rank)]
        held: list[InputEvent] = []
        now, at = state.last_input or 0.0, state
        while len(held) <= len(same):
            held.append(RankKey(rank, long=True))
            at, _ = step(at, held[-1], now)
            shown = view(at).picker
            if shown is not None and shown.candidate == label:
                return [*held, RankKey(rank)]
        raise AssertionError(f"no hold of {rank_label(rank)} shows {label}: {pv}")
    n = len(pv.options)
    right, left = (target - pv.index) % n, (pv.index - target) % n
    moves: list[InputEvent] = [KnobTurn(right)] if right <= left else [KnobTurn(-left)]
    return [*(m for m in moves if isinstance(m, KnobTurn) and m.steps), OK]


def passes_through(state: AppState) -> bool:
    """True on the keypad when only one plain notice is left: the next rank key goes
    through it (a turn of the knob never leaves a page)."""
    screen = state.screen
    if not isinstance(screen, Reading) or len(screen.pages) != 1:
        return False
    if not state.keypad or screen.pages[0].offer is not None:
        return False
    # Only onto a card wheel: a claim that comes next takes the key as a digit.
    return isinstance(show.close(state, screen)[0].screen, WheelScreen)
