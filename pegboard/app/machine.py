"""The app's state machine: ``step(state, event, now) -> (state, effects)``.

Pure: no I/O, no clock (``now`` is seconds from the loop's injected clock), no randomness.
The loop keeps the latest state, runs the returned effects in order (persisting first), and
draws ``view(state)`` when it differs from the last frame.

The engine is the only source of game truth: the state holds the game's entries (a
:class:`~pegboard.app.session.Session`) plus UI state only (which screen, what is highlighted,
the cards of a crib entered so far, notices waiting to be read). Which table screen shows is
derived from the engine's phase.

Controls. Encoder kit: turning moves the highlight, OK (the push) enters or chooses, GO says
go (and moves down a list), UNDO takes back the last entry (or steps back out of a screen),
MENU opens the menu, holding MENU offers to shut down. Keypad kit: a rank key enters that
rank at once (held: choose a suit fact such as "flush" or "nobs"), and in lists picks row
N (A = 1); holding OK is MENU.

Idle: after ``idle.dim_after_s`` seconds without input the screen dims, after
``idle.blank_after_s`` it blanks (``Tick`` events let the app notice time passing). Any input
wakes the screen, and the waking input does nothing else, so a player who nudges a dark box
never enters a card by accident.
"""

from __future__ import annotations

import enum
import json
import re
from dataclasses import dataclass, replace
from typing import Any

from pegboard import stats
from pegboard.app import picker
from pegboard.app.effects import (
    Effect,
    FinishGame,
    LedSide,
    Persist,
    PersistNewGame,
    PersistUndo,
    PowerOff,
    SetBrightness,
    UpdateLeds,
)
from pegboard.app.inputs import Button, InputEvent, LinkStatus, Press, RankKey, Tick, Turn
from pegboard.app.session import Session
from pegboard.app.view import Brightness, PickerView, Screen, SideView, View
from pegboard.config import Config
from pegboard.errors import PegboardError
from pegboard.rules import advice, hints, rulehelp, teaching
from pegboard.rules.cards import Card, Rank, Suit
from pegboard.rules.events import (
    Claim,
    Crib,
    Cut,
    Deal,
    Dealt,
    Event,
    GameHeader,
    Go,
    Muggins,
    NewGame,
    Peg,
    Penalty,
    Play,
    Show,
    Starter,
)
from pegboard.rules.penalties import CATALOGUE
from pegboard.rules.scoring import Breakdown
from pegboard.rules.state import Award, GameState, PenaltyOffer, Phase
from pegboard.rules.variants import Rules

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fred", "Gran", "Grandad", "Mum", "Dad")
"""The short list of names offered at setup (after the default "P1".."P4")."""
MAX_CLAIM = 29
PAGE_ROWS = 2
"""Lines of a notice that are surely on screen at once (below the board header)."""


class Mode(enum.Enum):
    """Which screen the player is on (the table screens are refined by the engine phase)."""

    HOME = "home"
    SETUP = "setup"
    DEALER = "dealer"
    CUT = "cut"
    TABLE = "table"
    PEG = "peg"
    MENU = "menu"
    PENALTY = "penalty"
    CONFIRM = "confirm"
    SCORES = "scores"
    GAME_OVER = "game over"
    SAVED = "saved"
    HELP = "help"
    ENTRY = "entry"


@dataclass(frozen=True, slots=True)
class Setup:
    """The new-game options being chosen."""

    players: int = 2
    names: tuple[str, ...] = ("P1", "P2", "P3", "P4")
    target: int = 121
    five_card: bool = False
    muggins: bool = False
    game_points: str = "acc"
    match_games: int = 1
    by_points: bool = False

    def rules(self) -> Rules:
        """The engine rules these options make."""
        return Rules(
            target=self.target, five_card=self.five_card and self.players == 2,
            muggins=self.muggins, game_points=self.game_points, match_games=self.match_games,
        )


@dataclass(frozen=True, slots=True)
class Page:
    """A notice to read before going on (a hand's count, a renege, the winner).

    ``offer`` is an entry OK applies (a renege penalty); GO skips it."""

    title: str
    lines: tuple[str, ...]
    offer: Event | None = None
    screen: Screen = Screen.MESSAGE


@dataclass(frozen=True, slots=True)
class AppState:
    """Everything the app knows. Immutable; ``step`` returns a new one."""

    config: Config
    mode: Mode = Mode.HOME
    index: int = 0
    back: Mode = Mode.HOME
    setup: Setup = Setup()
    session: Session | None = None
    pending: tuple[Card, ...] = ()
    cursor: int | None = None
    fact: int = 0
    scroll: int = 0
    anchor: Rank | None = None
    pages: tuple[Page, ...] = ()
    award: str = ""
    number: int = 0
    side: int = 0
    penalty: int | None = None
    offender: int | None = None
    confirm: str = ""
    muggins_declined: bool = False
    teaching: bool = False
    helped: frozenset[str] = frozenset()
    topic: int | None = None
    help_page: int = 0
    entry: str = ""
    entry_player: int = 0
    entry_rank: Rank | None = None
    entry_cards: tuple[Card, ...] = ()
    race: tuple[tuple[int, ...], ...] = ()
    race_shown: bool = False
    offers_shown: int = 0
    brightness: Brightness = Brightness.NORMAL
    last_input: float | None = None
    link: str = ""

    @property
    def keypad(self) -> bool:
        """True on the keypad kit (rank keys, no encoder)."""
        return self.config.input.kit == "keypad"


Result = tuple[AppState, tuple[Effect, ...]]


# --------------------------------------------------------------------------------------------
# Entry points


def initial_state(config: Config, *, resume: tuple[str, ...] | list[str] | None = None) -> AppState:
    """The state at power-on; ``resume`` is an unfinished game's record lines to continue.

    A resumed game continues exactly where it stopped, with a notice saying so.
    """
    r = config.rules
    setup = Setup(
        players=r.players, target=r.target, five_card=r.five_card, muggins=r.muggins,
        game_points=r.game_points, match_games=r.match_games,
    )
    state = AppState(config=config, setup=setup)
    if resume:
        session = Session.resume(resume)
        gs = session.state
        page = Page("Game restored", (_score_line(gs), "OK to go on"))
        state = replace(
            state, session=session, mode=_table_mode(session), pages=(page,),
            offers_shown=len(gs.offers),
        )
    return state


def step(state: AppState, event: InputEvent, now: float) -> Result:
    """Apply one input event at time ``now``; return the new state and the effects to run."""
    if isinstance(event, LinkStatus):
        return replace(state, link="" if event.up else (event.detail or "LEDs off")), ()
    if isinstance(event, Tick):
        return _idle(state, now)
    if state.brightness is not Brightness.NORMAL:
        awake = replace(state, brightness=Brightness.NORMAL, last_input=now)
        return awake, (SetBrightness(Brightness.NORMAL),)
    state = replace(state, last_input=now)
    before = _leds(state)
    new, effects = _dispatch(state, event)
    after = _leds(new)
    if after is not None and after != before:
        effects = (*effects, after)
    return new, effects


def view(state: AppState) -> View:
    """What the screen shows in ``state``."""
    v = _view(state)
    if v.selected is not None:
        v = replace(v, selected=v.selected % len(v.lines) if v.lines else None)
    return replace(v, link=state.link, brightness=state.brightness)


# --------------------------------------------------------------------------------------------
# Idle


def _idle(state: AppState, now: float) -> Result:
    if state.last_input is None:
        return replace(state, last_input=now), ()
    idle = now - state.last_input
    dim, blank = state.config.idle.dim_after_s, state.config.idle.blank_after_s
    level = state.brightness
    if blank and idle >= blank:
        level = Brightness.BLANK
    elif dim and idle >= dim and level is Brightness.NORMAL:
        level = Brightness.DIM
    if level is state.brightness:
        return state, ()
    return replace(state, brightness=level), (SetBrightness(level),)


# --------------------------------------------------------------------------------------------
# Dispatch


def _dispatch(state: AppState, event: InputEvent) -> Result:
    if isinstance(event, Press):
        if event.button is Button.MENU and event.long:
            return _open_confirm(state, "shutdown"), ()
        if event.button is Button.MENU or (
            event.button is Button.OK and event.long and (state.keypad or not _wheel(state))
        ):
            return _open_menu(state), ()
    handler = _HANDLERS[state.mode]
    return handler(state, event)


def _wheel(state: AppState) -> bool:
    """True when a card picker is on screen (holding OK then means "suit fact")."""
    if state.mode is Mode.CUT:
        return not state.pages
    if state.mode is not Mode.TABLE or state.pages or state.session is None:
        return False
    gs = state.session.state
    if gs.pending_claims or (gs.pending_muggins is not None and not state.muggins_declined):
        return False
    return _picker_for(state) is not None


def _list_move(state: AppState, event: InputEvent, size: int) -> tuple[AppState, int | None]:
    """Common list keys: turn/GO move, OK or a rank key (row N) chooses. Returns the chosen
    row, or None when the event only moved (or did nothing)."""
    if size == 0:
        return state, None
    if isinstance(event, Turn):
        return replace(state, index=(state.index + event.steps) % size), None
    if isinstance(event, Press) and event.button is Button.GO:
        return replace(state, index=(state.index % size + 1) % size), None
    if isinstance(event, Press) and event.button is Button.OK:
        return state, state.index % size
    if isinstance(event, RankKey) and int(event.rank) <= size:
        row = int(event.rank) - 1
        return replace(state, index=row), row
    return state, None


def _is_undo(event: InputEvent) -> bool:
    return isinstance(event, Press) and event.button is Button.UNDO


# Home ---------------------------------------------------------------------------------------

_HOME_ROWS = ("New game", "Shut down")


def _home(state: AppState, event: InputEvent) -> Result:
    state, row = _list_move(state, event, len(_HOME_ROWS))
    if row == 0:
        return replace(state, mode=Mode.SETUP, index=0), ()
    if row == 1:
        return _open_confirm(state, "shutdown"), ()
    return state, ()


# Setup --------------------------------------------------------------------------------------


def _setup_rows(setup: Setup) -> list[tuple[str, str]]:
    rows = [("start", "Start"), ("players", f"Players: {setup.players}")]
    for seat in range(setup.players):
        rows.append((f"name{seat}", f"Seat {seat + 1}: {setup.names[seat]}"))
    rows.append(("target", f"Target: {setup.target}"))
    if setup.players == 2:
        rows.append(("five", f"Five-card: {'on' if setup.five_card else 'off'}"))
    rows.append(("muggins", f"Muggins: {'on' if setup.muggins else 'off'}"))
    rows.append(("points", f"Game points: {'ACC' if setup.game_points == 'acc' else 'classic'}"))
    games = "1 game" if setup.match_games == 1 else f"best of {setup.match_games}"
    rows.append(("match", f"Match: {games}"))
    rows.append(("entry", f"Enter: {'points only' if setup.by_points else 'cards'}"))
    return rows


def _teaching_row(state: AppState) -> tuple[str, str]:
    return ("teaching", f"Teaching: {'on' if state.teaching else 'off'}")


def _setup(state: AppState, event: InputEvent) -> Result:
    if _is_undo(event):
        return replace(state, mode=Mode.HOME, index=0), ()
    rows = [*_setup_rows(state.setup), _teaching_row(state)]
    state, row = _list_move(state, event, len(rows))
    if row is None:
        return state, ()
    key = rows[row][0]
    s = state.setup
    if key == "start":
        return _start_game(state)
    if key == "teaching":
        return replace(state, teaching=not state.teaching), ()
    if key == "players":
        s = replace(s, players=s.players % 4 + 1 if s.players < 4 else 2)
    elif key.startswith("name"):
        seat = int(key[4:])
        choices = (f"P{seat + 1}", *NAMES)
        taken = set(s.names[: s.players]) - {s.names[seat]}
        current = choices.index(s.names[seat]) if s.names[seat] in choices else 0
        for k in range(1, len(choices) + 1):
            candidate = choices[(current + k) % len(choices)]
            if candidate not in taken:
                break
        names = list(s.names)
        names[seat] = candidate
        s = replace(s, names=tuple(names))
    elif key == "target":
        s = replace(s, target=61 if s.target == 121 else 121)
    elif key == "five":
        five = not s.five_card
        s = replace(s, five_card=five, target=61 if five else 121)
    elif key == "muggins":
        s = replace(s, muggins=not s.muggins)
    elif key == "points":
        s = replace(s, game_points="classic" if s.game_points == "acc" else "acc")
    elif key == "match":
        s = replace(s, match_games={1: 3, 3: 5, 5: 7}.get(s.match_games, 1))
    elif key == "entry":
        s = replace(s, by_points=not s.by_points)
    return replace(state, setup=s), ()


def _start_game(state: AppState) -> Result:
    s = state.setup
    header = GameHeader(tuple(s.names[: s.players]), s.rules())
    session = Session.new(header)
    new = replace(
        state, session=session, pages=(), scroll=0, award="", pending=(), cursor=None, fact=0,
        anchor=None,
        offers_shown=0, muggins_declined=False, index=0, number=0, side=0,
        mode=Mode.PEG if s.by_points else Mode.DEALER, back=Mode.PEG,
    )
    return new, (PersistNewGame(session.header_line()),)


# Dealer and cut -----------------------------------------------------------------------------


def _dealer_rows(state: AppState) -> list[str]:
    assert state.session is not None
    return ["Cut for deal", *(f"{name} deals" for name in state.session.header.players)]


def _dealer(state: AppState, event: InputEvent) -> Result:
    if _is_undo(event):
        return _undo(state)
    rows = _dealer_rows(state)
    state, row = _list_move(state, event, len(rows))
    if row is None:
        return state, ()
    if row == 0:
        return replace(state, mode=Mode.CUT, pending=(), cursor=None, fact=0), ()
    return _enter(replace(state, mode=Mode.TABLE), Deal(dealer=row - 1))


def _cut_options(state: AppState) -> tuple[list[picker.Slot], int]:
    ranks = [r for r in picker.RANKS if picker.suit_options(r, state.pending, starter=None)]
    order, start = picker.natural_order(ranks, None)
    return _flat(order, lambda r: picker.suit_options(r, state.pending, starter=None)), start


def _cut(state: AppState, event: InputEvent) -> Result:
    if state.pages:
        return _page(state, event)
    if _is_undo(event):
        if state.pending:
            return replace(state, pending=state.pending[:-1], cursor=None, fact=0), ()
        return replace(state, mode=Mode.DEALER, index=0), ()
    options, start = _cut_options(state)
    if isinstance(event, Press) and event.button is Button.GO and not event.long:
        return _jump(state, options, start), ()
    state, chosen = _pick(state, event, options, start)
    if chosen is None:
        return state, ()
    assert state.session is not None
    pending = (*state.pending, chosen.card)
    if len(pending) < len(state.session.header.players):
        return replace(state, pending=pending, cursor=None, fact=0), ()
    new, effects = _enter(replace(state, mode=Mode.TABLE, pending=()), Cut(pending))
    if new.mode is Mode.CUT and not new.pages:
        new = replace(new, pages=(Page("A tie", ("Lowest cards tie:", "cut again.")),))
    return new, effects


# The table ----------------------------------------------------------------------------------


def _table_mode(session: Session) -> Mode:
    gs = session.state
    if gs.phase is Phase.GAME_OVER:
        return Mode.GAME_OVER
    if gs.phase is Phase.CUT and not session.events:
        return Mode.DEALER
    if gs.phase is Phase.CUT:
        return Mode.CUT
    return Mode.TABLE


def _gs(state: AppState) -> GameState:
    assert state.session is not None
    return state.session.state


def _flat(order: list[Rank], options_of: Any) -> list[picker.Slot]:
    out: list[picker.Slot] = []
    for rank in order:
        out.extend(picker.slots_of(options_of(rank)))
    return out


def _picker_for(state: AppState) -> tuple[str, list[picker.Slot], int] | None:
    """The card picker of the current table screen: prompt, options, default index."""
    gs = _gs(state)
    names = gs.names
    if gs.phase is Phase.STARTER:
        allowed_out = {c for d in gs.dealt if d is not None for c in d}
        ranks = [
            r for r in picker.RANKS
            if picker.suit_options(r, allowed_out, starter=None)
        ]
        order, start = picker.natural_order(ranks, state.anchor)
        options = _flat(order, lambda r: picker.suit_options(r, allowed_out, starter=None))
        return "Starter", options, start
    if gs.phase is Phase.PLAY and gs.to_act is not None:
        p = gs.to_act
        room = 31 - gs.count
        dealt = gs.dealt[p]

        avoid = _flush_suits(gs, p)
        unavailable = gs.seen | _dealt_to_others(gs, p)

        def opts(rank: Rank) -> list[picker.Option]:
            return picker.suit_options(
                rank, unavailable, starter=gs.starter, group=gs.played[p], allowed=dealt,
                avoid=avoid, last=len(gs.played[p]) == gs.rules.hand_size() - 1,
            )

        ranks = [r for r in picker.RANKS if r.pips <= room and opts(r)]
        order, start = picker.play_order(gs.pile, ranks, _play_weights(state, gs, p))
        return f"{names[p]} plays", _flat(order, opts), _first_of(order, opts, start)
    if gs.phase is Phase.SHOW and gs.to_act is not None:
        p = gs.to_act
        group = state.pending or gs.played[p]
        seen = gs.seen | set(group)
        size = gs.rules.hand_size()

        def hand_opts(rank: Rank) -> list[picker.Option]:
            return picker.suit_options(
                rank, seen, starter=gs.starter, group=group, allowed=gs.dealt[p],
                last=len(group) == size - 1,
            )

        ranks = [r for r in picker.RANKS if hand_opts(r)]
        order, start = picker.natural_order(ranks, state.anchor)
        prompt = f"{names[p]}'s hand {len(group) + 1}/{size}"
        return prompt, _flat(order, hand_opts), _first_of(order, hand_opts, start)
    if gs.phase is Phase.CRIB:
        seen = gs.seen | set(state.pending)
        known = [c for d in gs.dealt if d is not None for c in d if c not in seen]
        stand_in_seen = seen | _dealt_to_others(gs, None)

        def crib_opts(rank: Rank) -> list[picker.Option]:
            # A laid-away card already known from the dealt cards is that very card.
            exact = [picker.Option(c.pretty, c) for c in known if c.rank is rank]
            if exact:
                return exact[:1]
            return picker.suit_options(
                rank, stand_in_seen, starter=gs.starter, group=state.pending, crib=True,
            )

        ranks = [r for r in picker.RANKS if crib_opts(r)]
        order, start = picker.natural_order(ranks, state.anchor)
        prompt = f"Crib card {len(state.pending) + 1}/4"
        return prompt, _flat(order, crib_opts), _first_of(order, crib_opts, start)
    return None


def _dealt_to_others(gs: GameState, player: int | None) -> set[Card]:
    """Cards known to be in other players' dealt hands (stand-ins must not take them)."""
    return {
        c for q, dealt in enumerate(gs.dealt) if dealt is not None and q != player for c in dealt
    }


def _flush_suits(gs: GameState, player: int) -> set[Suit]:
    """Suits the other players' hands are still following (they may flush in them)."""
    return {
        cards[0].suit for q, cards in enumerate(gs.played)
        if q != player and cards and len({c.suit for c in cards}) == 1
    }


def _play_weights(state: AppState, gs: GameState, player: int) -> dict[Rank, float]:
    """How likely each rank is to be ``player``'s card: by the copies not yet seen, and
    nearly never a rank that fitted when the player said go earlier this deal (they held
    none; only a renege would show one)."""
    room = _go_room(state, gs, player)
    seen: dict[Rank, int] = {}
    for card in gs.seen:
        seen[card.rank] = seen.get(card.rank, 0) + 1
    return {
        r: (4 - seen.get(r, 0)) / 4 * (0.05 if room is not None and r.pips <= room else 1.0)
        for r in picker.RANKS
    }


def _go_room(state: AppState, gs: GameState, player: int) -> int | None:
    """The smallest room under 31 at which ``player`` said go this deal, if they did."""
    assert state.session is not None
    events = state.session.events
    start = max((i for i, e in enumerate(events) if isinstance(e, Starter)), default=-1)
    if start < 0:
        return None
    count, out = 0, set()
    left = [gs.rules.hand_size()] * gs.players
    room: int | None = None
    for event in events[start + 1:]:
        if isinstance(event, Play):
            count += event.card.pips
            left[event.player] -= 1
            mover = event.player
            include = True
        elif isinstance(event, Go):
            if event.player == player:
                room = min(room, 31 - count) if room is not None else 31 - count
            out.add(event.player)
            mover = event.player
            include = False
        else:
            continue
        still = [
            (mover + k) % gs.players for k in range(1, gs.players + 1)
            if ((mover + k) % gs.players != mover or include)
            and (mover + k) % gs.players not in out and left[(mover + k) % gs.players] > 0
        ]
        if count == 31 or not still:
            count, out = 0, set()
    return room


def _first_of(order: list[Rank], options_of: Any, start: int) -> int:
    """Index on the wheel of the first place of ``order[start]``."""
    return sum(len(picker.slots_of(options_of(rank))) for rank in order[:start])


def _pick(
    state: AppState, event: InputEvent, slots: list[picker.Slot], start: int,
) -> tuple[AppState, picker.Option | None]:
    """Wheel keys: turning moves, OK enters the highlighted card, holding OK switches to the
    next suit fact of the highlighted rank; a rank key enters that rank's plain card (held:
    highlights the rank with its next suit fact)."""
    if not slots:
        return state, None
    index = (state.cursor if state.cursor is not None else start) % len(slots)
    fact = state.fact % len(slots[index])
    if isinstance(event, Turn):
        return replace(state, cursor=(index + event.steps) % len(slots), fact=0), None
    if isinstance(event, Press) and event.button is Button.OK:
        if event.long:
            return replace(state, cursor=index, fact=(fact + 1) % len(slots[index])), None
        return replace(state, cursor=None, fact=0), slots[index][fact]
    if isinstance(event, RankKey):
        of_rank = [i for i, slot in enumerate(slots) if slot[0].rank is event.rank]
        if not of_rank:
            return state, None
        if not event.long:
            return replace(state, cursor=None, fact=0), slots[of_rank[0]][0]
        if index in of_rank:
            # Held again: the next suit fact, then the rank's next known card.
            if fact + 1 < len(slots[index]):
                return replace(state, cursor=index, fact=fact + 1), None
            nxt = of_rank[(of_rank.index(index) + 1) % len(of_rank)]
            return replace(state, cursor=nxt, fact=0), None
        target = of_rank[0]
        return replace(state, cursor=target, fact=1 if len(slots[target]) > 1 else 0), None
    return state, None


def _jump(state: AppState, slots: list[picker.Slot], start: int) -> AppState:
    """GO on a wheel where it has no other meaning: the cursor jumps ahead to the first card
    of the next group of ranks (A-5, 6-9, 10-K, then round to A-5)."""
    if not slots:
        return state
    index = (state.cursor if state.cursor is not None else start) % len(slots)
    target = picker.jump_index([slot[0].rank for slot in slots], index)
    return replace(state, cursor=target, fact=0)


def _table(state: AppState, event: InputEvent) -> Result:
    if state.pages:
        return _page(state, event)
    if _is_undo(event):
        if state.pending and _gs(state).phase in (Phase.CRIB, Phase.SHOW):
            return replace(state, pending=state.pending[:-1], cursor=None, fact=0), ()
        return _undo(state)
    gs = _gs(state)
    if gs.pending_claims:
        return _claim(state, event)
    if gs.pending_muggins is not None and not state.muggins_declined:
        return _muggins(state, event)
    if gs.phase is Phase.PLAY and isinstance(event, Press) and event.button is Button.GO:
        if gs.to_act is None:
            return state, ()
        return _enter(state, Go(gs.to_act))
    found = _picker_for(state)
    if found is None:
        return state, ()
    _, options, start = found
    if isinstance(event, Press) and event.button is Button.GO and not event.long:
        # No "go" outside the play: GO jumps the wheel to the next group of ranks.
        return _jump(state, options, start), ()
    state, chosen = _pick(state, event, options, start)
    if chosen is None:
        return state, ()
    card = chosen.card
    if chosen.swaps:
        state, swapped = _swap(state, chosen.swaps)
        new, effects = _table_enter(state, card)
        return new, swapped + effects
    return _table_enter(state, card)


def _table_enter(state: AppState, card: Card) -> Result:
    """Enter the card picked on the table screen (the starter, a play, a hand or crib card)."""
    gs = _gs(state)
    if gs.phase is Phase.STARTER:
        return _enter(replace(state, anchor=card.rank), Starter(card))
    if gs.phase is Phase.PLAY:
        assert gs.to_act is not None
        return _enter(state, Play(gs.to_act, card))
    if gs.phase is Phase.SHOW:
        assert gs.to_act is not None
        p = gs.to_act
        group = (*(state.pending or gs.played[p]), card)
        if len(group) < gs.rules.hand_size():
            return replace(state, pending=group, anchor=card.rank), ()
        return _enter(replace(state, pending=(), anchor=None), Show(p, group))
    if gs.phase is Phase.CRIB:
        pending = (*state.pending, card)
        if len(pending) < 4:
            return replace(state, pending=pending, anchor=card.rank), ()
        return _enter(replace(state, pending=(), anchor=None), Crib(pending))
    return state, ()


def _swap(state: AppState, swaps: tuple[tuple[Card, Card], ...]) -> Result:
    """Re-suit stand-in cards entered earlier this deal (a suit fact chosen later showed what
    they must have been): the entries from the first changed one on are taken back and
    entered again with the new cards. Suits never change a play's score, so nothing else
    moves."""
    session = state.session
    assert session is not None
    change = dict(swaps)
    events = session.events
    start = max((i for i, e in enumerate(events) if isinstance(e, Starter)), default=len(events))
    first = next(
        (i for i in range(start, len(events))
         if isinstance(events[i], Play) and events[i].card in change),  # type: ignore[union-attr]
        len(events),
    )
    redo = [
        Play(e.player, change.get(e.card, e.card)) if isinstance(e, Play) else e
        for e in events[first:]
    ]
    effects: list[Effect] = []
    rebuilt = session
    try:
        for _ in redo:
            rebuilt = rebuilt.undo()
            effects.append(PersistUndo())
        for event in redo:
            rebuilt, _ = rebuilt.apply(event)
            effects.append(Persist(rebuilt.line(event)))
    except PegboardError:
        return state, ()
    pending = tuple(change.get(c, c) for c in state.pending)
    return replace(state, session=rebuilt, pending=pending), tuple(effects)


def _page(state: AppState, event: InputEvent) -> Result:
    """A notice on screen: OK (or GO) goes on, turning scrolls, UNDO takes back the entry
    that made it. From the last notice, a turn past its end or a rank key goes straight on to
    the picker underneath, so reading costs nothing extra."""
    page = state.pages[0]
    rest = state.pages[1:]
    if _is_undo(event):
        return _undo(replace(state, pages=(), scroll=0))
    if isinstance(event, Turn):
        bottom = max(0, len(page.lines) - PAGE_ROWS)
        at_end = bottom == 0 or (event.steps > 0 and state.scroll >= bottom)
        if at_end and not rest and page.offer is None:
            return _dispatch(replace(state, pages=(), scroll=0), event)
        return replace(state, scroll=max(0, min(bottom, state.scroll + event.steps))), ()
    if isinstance(event, Press) and event.button is Button.OK and page.offer is not None:
        return _enter(replace(state, pages=rest, scroll=0), page.offer)
    if isinstance(event, Press) and event.button in (Button.OK, Button.GO):
        return replace(state, pages=rest, scroll=0), ()
    if isinstance(event, RankKey) and not rest and page.offer is None:
        return _dispatch(replace(state, pages=(), scroll=0), event)
    return state, ()


def _claim(state: AppState, event: InputEvent) -> Result:
    gs = _gs(state)
    claim = gs.pending_claims[0]
    value = _number_input(state, event, MAX_CLAIM)
    if value is None:
        return _number_edit(state, event, MAX_CLAIM), ()
    return _enter(replace(state, number=0), Claim(claim.player, value))


def _number_input(state: AppState, event: InputEvent, top: int) -> int | None:
    if isinstance(event, Press) and event.button is Button.OK and not event.long:
        return min(state.number, top)
    return None


def _number_edit(state: AppState, event: InputEvent, top: int) -> AppState:
    """Turn adds or takes away; keypad rank keys type digits (A = 1, 10 = 0)."""
    if isinstance(event, Turn):
        return replace(state, number=max(0, min(top, state.number + event.steps)))
    if isinstance(event, RankKey) and int(event.rank) <= 10:
        digit = 1 if event.rank is Rank.ACE else int(event.rank) % 10
        typed = state.number * 10 + digit
        return replace(state, number=typed if typed <= top else digit)
    return state


def _muggins_rows(state: AppState) -> list[tuple[int, str]]:
    gs = _gs(state)
    missed = gs.pending_muggins
    assert missed is not None
    owner_side = gs.side_of(missed.owner)
    rows = [
        (p, f"{gs.names[p]}: muggins {missed.points}")
        for p in range(gs.players) if gs.side_of(p) != owner_side
    ]
    return [*rows, (-1, "No muggins")]


def _muggins(state: AppState, event: InputEvent) -> Result:
    gs = _gs(state)
    missed = gs.pending_muggins
    assert missed is not None
    rows = _muggins_rows(state)
    state, row = _list_move(state, event, len(rows))
    if row is None:
        return state, ()
    player = rows[row][0]
    if player < 0:
        return replace(state, muggins_declined=True, index=0), ()
    return _enter(replace(state, index=0), Muggins(player, missed.points))


# Entering and undoing -----------------------------------------------------------------------


def _enter(state: AppState, event: Event) -> Result:
    """Apply a player's entry; a refused entry shows the engine's reason and changes nothing."""
    session = state.session
    assert session is not None
    before = session.state
    try:
        session, awards = session.apply(event)
    except PegboardError as error:
        return replace(state, pages=(Page("Not allowed", _wrap(str(error))),)), ()
    effects: list[Effect] = [Persist(session.line(event))]
    state = replace(state, session=session, cursor=None, fact=0, muggins_declined=False)
    new, done = _after(state, awards, effects)
    if new.teaching:
        new = _teach(new, event, awards, before)
    return new, done


def _teach(state: AppState, event: Event, awards: tuple[Award, ...], before: GameState) -> AppState:
    """Teaching mode: rule help the first time a dispute is likely, what a hand could have
    been (when the dealt cards were entered), and what a low claim missed."""
    assert state.session is not None
    after = state.session.state
    extra: list[Page] = []
    for award in awards:
        dealt = after.dealt[award.player]
        if award.reason == "hand" and dealt is not None and after.starter is not None:
            try:
                kept = advice.best_keep(dealt, after.starter, players=after.players,
                                        five_card=after.rules.five_card)
            except PegboardError:
                continue
            if kept.breakdown.total > award.points:
                cards = " ".join(c.pretty for c in kept.keep)
                extra.append(Page(f"Could have been {kept.breakdown.total}",
                                  (f"keeping {cards}", f"(kept {award.points})")))
    if isinstance(event, Claim) and before.pending_claims:
        pending = before.pending_claims[0]
        if pending.items and event.points < pending.points:
            report = teaching.missed_combinations(Breakdown(pending.items), event.points)
            extra.append(Page("Missed", tuple(_no_suits(line) for line in report.lines())))
    explained: set[str] = set()
    if isinstance(event, Play) and not any(a.player == event.player for a in awards):
        # Why a card scored nothing when it nearly did ("no run: the 4 breaks 5-6-?-7"),
        # once per kind of near miss in a game, so the lesson does not become a chore.
        why = hints.explain_no_score((*before.pile, event.card))
        kind = f"why {why.split(':')[0]}" if why else ""
        if why is not None and kind not in state.helped:
            extra.append(Page("No score", (_no_suits(why),)))
            explained.add(kind)
    situation = rulehelp.situation_after(event, awards, before, after)
    topics = tuple(t for t in rulehelp.topics_for(situation) if t.id not in state.helped)
    extra.extend(_help_pages(topics))
    if not extra:
        return state
    return replace(state, pages=(*state.pages, *extra),
                   helped=state.helped | {t.id for t in topics} | explained)


def _no_suits(line: str) -> str:
    """Card notation without the suit ("7H" -> "7"): unasked suits are stand-ins."""
    return re.sub(r"\b(10|[2-9TJQKA])[CDHS]\b", r"\1", line)


def _after(state: AppState, awards: tuple[Award, ...], effects: list[Effect]) -> Result:
    """Settle an accepted entry: the award line, notices, the automatic next deal."""
    session = state.session
    assert session is not None
    gs = session.state
    pages = list(state.pages)
    spoken = [a for a in awards if a.reason not in ("hand", "crib")]
    award = "; ".join(_award_text(a) for a in spoken) if spoken else state.award
    for a in awards:
        if a.reason in ("hand", "crib"):
            pages.append(_breakdown_page(gs, a))
    if not awards and isinstance(session.events[-1], Play | Go):
        award = ""
    for offer in gs.offers[state.offers_shown:]:
        if not offer.resolved:
            pages.append(_offer_page(gs, offer))
    state = replace(state, offers_shown=len(gs.offers))
    if gs.phase is Phase.DEAL and gs.winner is None:
        session, _ = session.apply(Deal())
        effects.append(Persist(session.line(Deal())))
        gs = session.state
    mode = state.mode
    if gs.phase is Phase.GAME_OVER:
        mode = Mode.GAME_OVER
        state = replace(state, race=_race(session))
    elif mode in (Mode.DEALER, Mode.CUT, Mode.GAME_OVER):
        mode = Mode.TABLE
    if mode is Mode.TABLE and gs.phase is Phase.CUT:
        mode = Mode.CUT
    return replace(state, session=session, pages=tuple(pages), award=award, mode=mode,
                   index=0), tuple(effects)


def _race(session: Session) -> tuple[tuple[int, ...], ...]:
    """Each side's score after every deal of the game just ended (for the race picture)."""
    try:
        summaries = stats.replay_events(session.header, session.events)
    except PegboardError:
        return ()
    rows = summaries[-1].race.scores if summaries else ()
    final = session.state.scores
    # Points pegged outside any deal (quick mode) still end the picture at the final score.
    return rows if rows and rows[-1] == final else (*rows, final)


def _undo(state: AppState) -> Result:
    """Take back the last entry a player made (and any automatic deal that followed it)."""
    session = state.session
    if session is None or not session.events:
        if session is not None and state.mode in (Mode.DEALER, Mode.CUT, Mode.PEG):
            return state, ()
        return state, ()
    effects: list[Effect] = []
    while session.events:
        last = session.events[-1]
        session = session.undo()
        effects.append(PersistUndo())
        if not (isinstance(last, Deal) and last.dealer is None and session.events):
            break
    what = _describe(last, session.state)
    mode = _table_mode(session)
    if state.mode is Mode.PEG:
        mode = Mode.PEG
    new = replace(
        state, session=session, pages=(), scroll=0, pending=(), cursor=None, fact=0, mode=mode,
        index=0,
        award=f"Undone: {what}", muggins_declined=False, race=(),
        offers_shown=min(state.offers_shown, len(session.state.offers)),
    )
    return new, tuple(effects)


def _describe(event: Event, gs: GameState) -> str:
    names = gs.names
    if isinstance(event, Play):
        return f"{names[event.player]}'s {picker.rank_label(event.card.rank)}"
    if isinstance(event, Go):
        return f"{names[event.player]}'s go"
    if isinstance(event, Starter):
        return "the starter"
    if isinstance(event, Crib):
        return "the crib"
    if isinstance(event, Show):
        return f"{names[event.player]}'s hand"
    if isinstance(event, Peg):
        return f"{names[event.player]}'s {event.points}"
    if isinstance(event, Penalty):
        return "the penalty"
    if isinstance(event, Deal | Cut):
        return "the deal"
    return event.TYPE


# Quick mode: pegging points -----------------------------------------------------------------


def _peg(state: AppState, event: InputEvent) -> Result:
    gs = _gs(state)
    if _is_undo(event):
        if state.number:
            return replace(state, number=0), ()
        if state.back is not Mode.PEG:
            return replace(state, mode=state.back, number=0), ()
        return _undo(state)
    if isinstance(event, Press) and event.button is Button.GO:
        return replace(state, side=(state.side + 1) % gs.sides, number=0), ()
    if gs.phase is Phase.GAME_OVER:
        return replace(state, mode=Mode.GAME_OVER), ()
    value = _number_input(state, event, gs.rules.target)
    if value is None:
        return _number_edit(state, event, gs.rules.target), ()
    if value == 0:
        return state, ()
    seat = next(p for p in range(gs.players) if gs.side_of(p) == state.side % gs.sides)
    new, effects = _enter(replace(state, number=0), Peg(seat, value))
    if new.mode is Mode.TABLE:
        new = replace(new, mode=Mode.PEG)
    return new, effects


# Menu, confirm, penalties, scores -----------------------------------------------------------


def _menu_rows(state: AppState) -> list[tuple[str, str]]:
    rows = [("back", "Back")]
    teach = ("teaching", f"Teaching: {'on' if state.teaching else 'off'}")
    if state.session is None:
        return [*rows, ("new", "New game"), ("help", "Rule help"), teach,
                ("shutdown", "Shut down")]
    gs = state.session.state
    if state.session.events:
        rows.append(("undo", "Undo last entry"))
    if gs.phase is Phase.PLAY and gs.to_act is not None and state.back is Mode.TABLE:
        rows.append(("hint", "Pegging hint"))
    if gs.phase is Phase.STARTER and state.back is Mode.TABLE:
        rows.append(("advice", "Discard advice"))
    rows.append(("peg", "Peg points"))
    rows.append(("penalty", "Penalty"))
    rows.append(("scores", "Scores"))
    if state.back is Mode.PEG and gs.phase is not Phase.GAME_OVER:
        rows.append(("cards", "Enter cards"))
    rows.append(("help", "Rule help"))
    rows.append(teach)
    rows.append(("end", "End game"))
    rows.append(("shutdown", "Shut down"))
    return rows


def _open_menu(state: AppState) -> AppState:
    if state.mode in (Mode.MENU, Mode.CONFIRM, Mode.SAVED):
        return state
    back = state.mode if state.mode not in (
        Mode.PENALTY, Mode.SCORES, Mode.HELP, Mode.ENTRY) else state.back
    return replace(state, mode=Mode.MENU, back=back, index=0)


def _menu(state: AppState, event: InputEvent) -> Result:
    if _is_undo(event):
        return replace(state, mode=state.back, index=0), ()
    rows = _menu_rows(state)
    state, row = _list_move(state, event, len(rows))
    if row is None:
        return state, ()
    key = rows[row][0]
    back = replace(state, mode=state.back, index=0)
    if key == "back":
        return back, ()
    if key == "new":
        return replace(state, mode=Mode.SETUP, index=0), ()
    if key == "undo":
        new, effects = _undo(back)
        return new, effects
    if key == "peg":
        return replace(state, mode=Mode.PEG, number=0, side=0), ()
    if key == "penalty":
        return replace(state, mode=Mode.PENALTY, index=0, penalty=None, offender=None), ()
    if key == "scores":
        return replace(state, mode=Mode.SCORES), ()
    if key == "help":
        return replace(state, mode=Mode.HELP, topic=None, help_page=0, index=0), ()
    if key == "teaching":
        return replace(state, teaching=not state.teaching), ()
    if key == "hint":
        assert state.session is not None
        to_act = state.session.state.to_act
        assert to_act is not None
        return _start_entry(state, "hint", to_act), ()
    if key == "advice":
        return replace(state, mode=Mode.ENTRY, entry="advice-who", index=0), ()
    if key == "cards":
        assert state.session is not None
        return replace(state, mode=_table_mode(state.session), back=Mode.TABLE, index=0), ()
    if key in ("end", "shutdown"):
        return _open_confirm(state, key), ()
    return state, ()


def _open_confirm(state: AppState, what: str) -> AppState:
    if state.mode is Mode.SAVED:
        return state
    back = state.back if state.mode in (Mode.MENU, Mode.CONFIRM) else state.mode
    return replace(state, mode=Mode.CONFIRM, confirm=what, back=back, index=0)


_QUESTIONS = {"shutdown": "Shut down?", "end": "End this game?"}


def _confirm(state: AppState, event: InputEvent) -> Result:
    if _is_undo(event):
        return replace(state, mode=state.back, index=0), ()
    state, row = _list_move(state, event, 2)
    if row is None:
        return state, ()
    if row == 0:
        return replace(state, mode=state.back, index=0), ()
    if state.confirm == "shutdown":
        return replace(state, mode=Mode.SAVED), (PowerOff(),)
    return _finish(state)


def _finish(state: AppState) -> Result:
    """Leave the current game for the history and go home."""
    session = state.session
    effects: tuple[Effect, ...] = ()
    if session is not None:
        gs = session.state
        if gs.result is not None and gs.phase is Phase.GAME_OVER:
            result: dict[str, Any] = {"type": "result", **gs.result.to_json()}
        else:
            result = {"type": "result", "scores": list(gs.scores), "winner": None,
                      "ended": "abandoned"}
        result["match"] = {"wins": list(gs.match.wins),
                           "game_points": list(gs.match.game_points)}
        effects = (FinishGame(json.dumps(result)),)
    home = replace(
        state, mode=Mode.HOME, session=None, pages=(), pending=(), award="", index=0,
        back=Mode.HOME,
    )
    return home, effects


def _penalty(state: AppState, event: InputEvent) -> Result:
    gs = _gs(state)
    if _is_undo(event):
        if state.offender is not None:
            return replace(state, offender=None, index=0), ()
        if state.penalty is not None:
            return replace(state, penalty=None, index=0), ()
        return replace(state, mode=state.back, index=0), ()
    if state.penalty is None:
        state, row = _list_move(state, event, len(CATALOGUE))
        if row is None:
            return state, ()
        return replace(state, penalty=row, index=0), ()
    if state.offender is None:
        chosen = state.penalty
        state, row = _list_move(state, event, gs.players)
        if row is None:
            return state, ()
        item = CATALOGUE[chosen]
        points = item.points
        for r in gs.reneges:
            if item.id == "renege" and r.player == row and not r.resolved:
                points = r.points
        return replace(state, offender=row, number=points), ()
    penalty, offender = state.penalty, state.offender
    if penalty is None or offender is None:
        return state, ()
    item = CATALOGUE[penalty]
    value = _number_input(state, event, 61)
    if value is None:
        return _number_edit(state, event, 61), ()
    back = replace(state, mode=state.back if state.back is not Mode.MENU else Mode.TABLE,
                   penalty=None, offender=None, number=0)
    return _enter(back, Penalty(offender, item.id, value))


def _scores(state: AppState, event: InputEvent) -> Result:
    if isinstance(event, Press) and event.button in (Button.OK, Button.UNDO, Button.GO):
        return replace(state, mode=state.back, index=0), ()
    return state, ()


def _game_over(state: AppState, event: InputEvent) -> Result:
    if state.pages:
        return _page(state, event)
    if _is_undo(event):
        return _undo(replace(state, race_shown=False))
    if isinstance(event, Press) and event.button is Button.GO and state.race:
        # GO switches between the result and the score race of the game.
        return replace(state, race_shown=not state.race_shown), ()
    if not (isinstance(event, Press) and event.button is Button.OK):
        return state, ()
    state = replace(state, race_shown=False)
    gs = _gs(state)
    if gs.match.winner is None and gs.rules.match_games > 1:
        return _enter(replace(state, mode=Mode.TABLE), NewGame())
    return _finish(state)


def _saved(state: AppState, event: InputEvent) -> Result:
    return state, ()


# Rule help ----------------------------------------------------------------------------------


def _help(state: AppState, event: InputEvent) -> Result:
    """The rule help topics; a topic's pages turn with OK, GO or the encoder."""
    if state.topic is None:
        if _is_undo(event):
            return replace(state, mode=state.back, index=0), ()
        state, row = _list_move(state, event, len(rulehelp.TOPICS))
        if row is None:
            return state, ()
        return replace(state, topic=row, help_page=0), ()
    pages = rulehelp.TOPICS[state.topic].pages
    if _is_undo(event):
        return replace(state, topic=None, help_page=0), ()
    forward = (isinstance(event, Press) and event.button in (Button.OK, Button.GO)) or (
        isinstance(event, Turn) and event.steps > 0)
    backward = isinstance(event, Turn) and event.steps < 0
    if forward:
        if state.help_page + 1 >= len(pages):
            return replace(state, topic=None, help_page=0), ()
        return replace(state, help_page=state.help_page + 1), ()
    if backward:
        return replace(state, help_page=max(0, state.help_page - 1)), ()
    return state, ()


def _help_pages(topics: tuple[rulehelp.Topic, ...]) -> list[Page]:
    """Rule help shown on its own when a dispute is likely (teaching mode)."""
    pages = []
    for topic in topics:
        body = topic.pages
        for number, lines in enumerate(body, start=1):
            title = topic.title if len(body) == 1 else f"{topic.title} {number}/{len(body)}"
            extra = (topic.reference,) if number == len(body) else ()
            pages.append(Page(title, (*lines, *extra), screen=Screen.HELP))
    return pages


# Entering cards for a hint or advice ---------------------------------------------------------


def _start_entry(state: AppState, purpose: str, player: int) -> AppState:
    return replace(state, mode=Mode.ENTRY, entry=purpose, entry_player=player, entry_rank=None,
                   entry_cards=(), cursor=None, fact=0, index=0)


def _entry_size(state: AppState) -> int:
    gs = _gs(state)
    if state.entry == "hint":
        return gs.cards_left[state.entry_player]
    return gs.rules.dealt_size(gs.players)


def _entry_slots(state: AppState) -> tuple[list[picker.Slot], int]:
    """Ranks (then suits, for advice, where suits make flushes) of cards not yet seen."""
    gs = _gs(state)
    blocked = set(gs.seen) | set(state.entry_cards)
    if gs.starter is not None:
        blocked.add(gs.starter)
    for q, dealt in enumerate(gs.dealt):
        if dealt is not None and q != state.entry_player:
            blocked |= set(dealt)
    if state.entry_rank is not None:
        cards = [Card(state.entry_rank, suit) for suit in picker.SUITS]
        return [[picker.Option(c.pretty, c)] for c in cards if c not in blocked], 0
    ranks = [r for r in picker.RANKS if picker.suit_options(r, blocked, starter=None)]
    order, start = picker.natural_order(ranks, state.anchor)
    return _flat(order, lambda r: picker.suit_options(r, blocked, starter=None)), start


def _entry(state: AppState, event: InputEvent) -> Result:
    gs = _gs(state)
    if state.entry == "advice-who":
        if _is_undo(event):
            return replace(state, mode=state.back, entry="", index=0), ()
        state, row = _list_move(state, event, gs.players)
        if row is None:
            return state, ()
        return _start_entry(state, "advice", row), ()
    if _is_undo(event):
        if state.entry_rank is not None:
            return replace(state, entry_rank=None, cursor=None), ()
        if state.entry_cards:
            return replace(state, entry_cards=state.entry_cards[:-1], cursor=None), ()
        return replace(state, mode=state.back, entry=""), ()
    if isinstance(event, Press) and event.button is Button.GO and state.entry == "hint":
        return _entry_done(state)
    slots, start = _entry_slots(state)
    state, chosen = _pick(state, event, slots, start)
    if chosen is None:
        return state, ()
    if state.entry == "advice" and state.entry_rank is None:
        return replace(state, entry_rank=chosen.rank, anchor=chosen.rank, cursor=None), ()
    cards = (*state.entry_cards, chosen.card)
    state = replace(state, entry_cards=cards, entry_rank=None, anchor=chosen.rank, cursor=None)
    if len(cards) >= _entry_size(state):
        return _entry_done(state)
    return state, ()


def _entry_done(state: AppState) -> Result:
    """Show the hint, or record the dealt cards and show the discard advice."""
    gs = _gs(state)
    cards = state.entry_cards
    back = replace(state, mode=Mode.TABLE, entry="", entry_cards=(), entry_rank=None,
                   anchor=None, cursor=None)
    if state.entry == "hint":
        if not cards:
            return back, ()
        seen = [c for c in gs.seen if c not in gs.pile]
        hint = hints.peg_hint(gs.pile, cards, seen)
        text = hint.reason
        for card in (*cards, *gs.pile):
            text = text.replace(card.pretty, picker.rank_label(card.rank))
        return replace(back, pages=(Page("Hint", _wrap(text)),)), ()
    player = state.entry_player
    options = advice.advise(cards, dealer=player == gs.dealer, players=gs.players,
                            five_card=gs.rules.five_card)
    lines = []
    for option in options[:3]:
        throw = " ".join(c.pretty for c in option.discard)
        lines.append(f"lay {throw}: {float(option.net):+.1f}")
        lines.append(f" hand {float(option.hand):.1f} crib {float(option.crib):.1f}")
    page = Page(f"Advice for {gs.names[player]}", tuple(lines))
    new, effects = _enter(back, Dealt(player, cards))
    return replace(new, pages=(page, *new.pages)), effects


_HANDLERS = {
    Mode.HOME: _home,
    Mode.SETUP: _setup,
    Mode.DEALER: _dealer,
    Mode.CUT: _cut,
    Mode.TABLE: _table,
    Mode.PEG: _peg,
    Mode.MENU: _menu,
    Mode.PENALTY: _penalty,
    Mode.CONFIRM: _confirm,
    Mode.SCORES: _scores,
    Mode.GAME_OVER: _game_over,
    Mode.SAVED: _saved,
    Mode.HELP: _help,
    Mode.ENTRY: _entry,
}


# --------------------------------------------------------------------------------------------
# LEDs


def _leds(state: AppState) -> UpdateLeds | None:
    if state.session is None:
        return None
    gs = state.session.state
    sides = tuple(
        LedSide(gs.scores[s], gs.back_pegs[s], gs.winner == s) for s in range(gs.sides)
    )
    return UpdateLeds(sides, gs.rules.target)


# --------------------------------------------------------------------------------------------
# Text


def _award_text(award: Award) -> str:
    """A pegging award for the screen: "Ann: fifteen for 2"."""
    name = award.sentence.split(":", 1)[0]
    reason = award.reason
    pts = award.points
    if reason in ("fifteen", "thirty-one", "pair", "pair royal", "double pair royal"):
        what = reason.capitalize()
    elif reason == "run":
        what = f"Run of {len(award.cards)}"
    elif reason == "go":
        what = "Go"
    elif reason == "last card":
        what = "Last card"
    elif reason == "his heels":
        what = "His heels"
    elif reason == "penalty":
        what = "Penalty"
    elif reason == "muggins":
        what = "Muggins"
    elif reason == "three for last":
        what = "Three for last"
    else:
        what = reason.capitalize()
    return f"{name}: {what} for {pts}" if pts >= 0 else f"{name}: {what}, {-pts} back"


_ITEM_WORDS = {"fifteen": "15", "pair": "pair", "run": "run", "flush": "flush", "nobs": "nobs"}


def _breakdown_page(gs: GameState, award: Award) -> Page:
    """A hand or crib counted aloud, one phrase a line ending in the running total: "fifteen
    2 (7 8)", "a pair is 4 (7 7)", "a run of 3 is 7 (6 7 8)", "his nob is 8". Cards show by
    rank: suits the picker did not ask are stand-ins."""
    owner = gs.names[award.player]
    title = f"{owner}'s {'crib' if award.reason == 'crib' else 'hand'}: {award.points}"
    lines = []
    total = 0
    for item in award.items:
        total += item.points
        cards = " ".join(picker.rank_label(c.rank) for c in sorted(item.cards))
        if item.kind == "fifteen":
            lines.append(f"fifteen {total} ({cards})")
        elif item.kind == "nobs":
            lines.append(f"his nob is {total}")
        elif item.kind == "flush":
            lines.append(f"flush of {len(item.cards)} is {total}")
        elif item.kind == "run":
            lines.append(f"run of {len(item.cards)} is {total} ({cards})")
        else:
            lines.append(f"{_A.get(item.kind, item.kind)} is {total} ({cards})")
    if not lines:
        lines.append("nineteen: nothing")
    return Page(title, tuple(lines), screen=Screen.SHOW)


_A = {"pair": "a pair", "pair royal": "pair royal", "double pair royal": "double pair royal"}


def _offer_page(gs: GameState, offer: PenaltyOffer) -> Page:
    """A penalty the engine found (a renege, a false claim of game), offered to the table."""
    event = Penalty(offer.player, offer.infraction, offer.points, offer.to)
    who, to = gs.names[offer.player], gs.names[offer.to]
    if offer.infraction == "renege":
        held = " ".join(picker.rank_label(c.rank) for c in offer.cards)
        lines = (f"{who} said go at {offer.count}", f"holding {held}",
                 f"{offer.points} to {to}", offer.rule)
        return Page("Renege", lines, event)
    lines = (f"{who} claimed game", f"on a wrong count: {offer.points}", f"to {to}, 15 back",
             offer.rule)
    return Page("False claim", lines, event)


def _wrap(text: str, width: int = 21) -> tuple[str, ...]:
    words = text.split()
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return tuple(lines)


def _side_name(gs: GameState, side: int) -> str:
    return " & ".join(gs.names[p] for p in range(gs.players) if gs.side_of(p) == side)


def _score_line(gs: GameState) -> str:
    return "  ".join(f"{_side_name(gs, s)} {gs.scores[s]}" for s in range(gs.sides))


# --------------------------------------------------------------------------------------------
# Views


def _sides(gs: GameState) -> tuple[SideView, ...]:
    dealer_side = gs.side_of(gs.dealer) if gs.dealer is not None else None
    acting = gs.side_of(gs.to_act) if gs.to_act is not None else None
    return tuple(
        SideView(
            name=_side_name(gs, s), score=gs.scores[s], back=gs.back_pegs[s],
            dealer=s == dealer_side, to_act=s == acting and gs.phase is Phase.PLAY,
            winner=gs.winner == s,
        )
        for s in range(gs.sides)
    )


def _numbered(state: AppState, rows: list[str]) -> tuple[str, ...]:
    if not state.keypad:
        return tuple(rows)
    return tuple(f"{i + 1} {row}" if i < 9 else row for i, row in enumerate(rows))


def _view(state: AppState) -> View:
    mode = state.mode
    if mode is Mode.HOME:
        return View(Screen.HOME, "Pegboard", _numbered(state, list(_HOME_ROWS)), state.index,
                    hint="OK choose")
    if mode is Mode.SETUP:
        rows = [label for _, label in (*_setup_rows(state.setup), _teaching_row(state))]
        return View(Screen.SETUP, "New game", _numbered(state, rows), state.index,
                    hint="OK change  UNDO back")
    if mode is Mode.SAVED:
        lines: tuple[str, ...] = ("Game saved",) if state.session is not None else ("Goodbye",)
        if state.session is not None:
            lines = (*lines, _score_line(state.session.state))
        return View(Screen.SAVED, "Pegboard", lines)
    if mode is Mode.CONFIRM:
        return View(Screen.CONFIRM, _QUESTIONS.get(state.confirm, "Sure?"),
                    _numbered(state, ["No", "Yes"]), state.index)
    if mode is Mode.HELP:
        if state.topic is None:
            rows = [t.title for t in rulehelp.TOPICS]
            return View(Screen.MENU, "Rule help", _numbered(state, rows), state.index,
                        hint="OK read  UNDO back")
        topic = rulehelp.TOPICS[state.topic]
        pages = topic.pages
        lines = pages[state.help_page]
        if state.help_page == len(pages) - 1:
            lines = (*lines, topic.reference)
        return View(Screen.HELP, f"{topic.title} {state.help_page + 1}/{len(pages)}", lines,
                    hint="OK next  UNDO back")
    if mode is Mode.MENU:
        rows = [label for _, label in _menu_rows(state)]
        return View(Screen.MENU, "Menu", _numbered(state, rows), state.index,
                    hint="OK choose  UNDO back")
    gs = _gs(state)
    sides = _sides(gs)
    target = gs.rules.target
    if state.pages and mode in (Mode.TABLE, Mode.CUT, Mode.GAME_OVER, Mode.PEG):
        page = state.pages[0]
        screen = page.screen
        hint = "OK next" if page.offer is None else "OK penalty  GO skip"
        return View(screen, page.title, page.lines, sides=sides, target=target, hint=hint,
                    award=state.award, first_line=state.scroll)
    if mode is Mode.DEALER:
        return View(Screen.DEALER, "Who deals?", _numbered(state, _dealer_rows(state)),
                    state.index, sides=sides, target=target)
    if mode is Mode.CUT:
        options, start = _cut_options(state)
        players = gs.names
        prompt = f"{players[len(state.pending)]} cuts"
        return View(Screen.CUT, "Cut for deal", sides=sides, target=target,
                    picker=_picker_view(prompt, options, state.cursor, start, state.fact),
                    lines=tuple(f"{players[i]}: {picker.rank_label(c.rank)}"
                                for i, c in enumerate(state.pending)),
                    hint="lowest card deals")
    if mode is Mode.PEG:
        lines = tuple(
            f"{'>' if s == state.side % gs.sides else ' '} {_side_name(gs, s)} {gs.scores[s]}"
            for s in range(gs.sides)
        )
        return View(Screen.PEG, f"Peg +{state.number}", lines, state.side % gs.sides,
                    sides=sides, target=target, award=state.award,
                    hint="OK peg  GO side")
    if mode is Mode.SCORES:
        return View(Screen.SCORES, f"Game {gs.game_no}, deal {gs.deal_no}",
                    _scores_lines(gs), sides=sides, target=target)
    if mode is Mode.PENALTY:
        return _penalty_view(state, gs, sides)
    if mode is Mode.ENTRY:
        return _entry_view(state, gs, sides)
    if mode is Mode.GAME_OVER and state.race_shown and state.race:
        return View(Screen.RACE, "Score race", sides=sides, target=target,
                    hint="GO result  OK next", race=state.race)
    if mode is Mode.GAME_OVER:
        return View(Screen.GAME_OVER if gs.match.winner is None or gs.rules.match_games == 1
                    else Screen.MATCH, "Game over", _scores_lines(gs), sides=sides,
                    target=target, hint="OK next  GO race", race=state.race)
    return _table_view(state, gs, sides)


def _scores_lines(gs: GameState) -> tuple[str, ...]:
    lines = [f"{_side_name(gs, s)}: {gs.scores[s]}" for s in range(gs.sides)]
    if gs.result is not None:
        skunk = {"none": "", "skunk": ", skunk", "double": ", double skunk"}[gs.result.skunk]
        lines.append(f"{_side_name(gs, gs.result.winner)} wins{skunk}")
    if gs.rules.match_games > 1:
        wins = "-".join(str(w) for w in gs.match.wins)
        lines.append(f"Match (best of {gs.rules.match_games}): {wins}")
        if gs.match.winner is not None:
            lines.append(f"{_side_name(gs, gs.match.winner)} wins the match")
    elif gs.result is not None:
        points = "-".join(str(p) for p in gs.result.game_points)
        lines.append(f"Game points {points}")
    return tuple(lines)


def _entry_view(state: AppState, gs: GameState, sides: tuple[SideView, ...]) -> View:
    if state.entry == "advice-who":
        return View(Screen.DEALER, "Whose cards?", _numbered(state, list(gs.names)),
                    state.index, hint="OK choose  UNDO back")
    slots, start = _entry_slots(state)
    size = _entry_size(state)
    who = gs.names[state.entry_player]
    if state.entry == "hint":
        title, hint = f"{who}: cards in hand", "OK add  GO hint"
        shown = tuple(picker.rank_label(c.rank) for c in state.entry_cards)
    else:
        title, hint = f"Dealt to {who}", "OK add  UNDO back"
        shown = tuple(c.pretty for c in state.entry_cards)
    prompt = f"card {len(state.entry_cards) + 1}/{size}"
    if state.entry_rank is not None:
        prompt = f"{picker.rank_label(state.entry_rank)} of which suit?"
    return View(Screen.HAND, title, (" ".join(shown),), sides=sides, target=gs.rules.target,
                picker=_picker_view(prompt, slots, state.cursor, start, state.fact), hint=hint)


def _penalty_view(state: AppState, gs: GameState, sides: tuple[SideView, ...]) -> View:
    if state.penalty is None:
        rows = [item.name for item in CATALOGUE]
        return View(Screen.PENALTIES, "Penalty", _numbered(state, rows), state.index,
                    hint="OK choose  UNDO back")
    item = CATALOGUE[state.penalty]
    if state.offender is None:
        return View(Screen.PENALTIES, "Who offended?", _numbered(state, list(gs.names)),
                    state.index, hint=item.rule)
    where = "back" if item.back else "to the opponent"
    lines = (item.name, f"{gs.names[state.offender]}: {state.number} {where}", item.rule)
    return View(Screen.PENALTIES, "Apply penalty?", lines, None, sides=sides,
                target=gs.rules.target, hint="turn points  OK apply")


def _picker_view(
    prompt: str, slots: list[picker.Slot], cursor: int | None, start: int, fact: int = 0,
) -> PickerView:
    if not slots:
        return PickerView(prompt, (), 0)
    index = (cursor if cursor is not None else start) % len(slots)
    labels = [slot[0].label for slot in slots]
    labels[index] = slots[index][fact % len(slots[index])].label
    return PickerView(prompt, tuple(labels), index)


def _table_view(state: AppState, gs: GameState, sides: tuple[SideView, ...]) -> View:
    target = gs.rules.target
    base = View(Screen.PLAY, sides=sides, target=target, award=state.award)
    if gs.pending_claims:
        claim = gs.pending_claims[0]
        title: str = f"{gs.names[claim.player]} claims"
        return replace(base, screen=Screen.PEG, title=title,
                       lines=(f"{claim.reason}: {state.number}",), hint="OK claim")
    if gs.pending_muggins is not None and not state.muggins_declined:
        rows = [label for _, label in _muggins_rows(state)]
        missed = gs.pending_muggins
        title = f"{gs.names[missed.owner]} missed {missed.points}"
        return replace(base, screen=Screen.CONFIRM, title=title,
                       lines=_numbered(state, rows), selected=state.index)
    found = _picker_for(state)
    prompt, options, start = found if found is not None else ("", [], 0)
    pv = _picker_view(prompt, options, state.cursor, start, state.fact)
    if gs.phase is Phase.STARTER:
        dealer = gs.names[gs.dealer] if gs.dealer is not None else ""
        return replace(base, screen=Screen.STARTER, title=f"Deal {gs.deal_no}: {dealer} deals",
                       picker=pv, hint="OK starter  GO jump")
    if gs.phase is Phase.PLAY:
        turn = gs.names[gs.to_act] if gs.to_act is not None else ""
        return replace(
            base, screen=Screen.PLAY, title=f"Deal {gs.deal_no}", count=gs.count,
            pile=tuple(picker.rank_label(c.rank) for c in gs.pile), turn=turn, picker=pv,
            hint="OK play  GO go",
        )
    if gs.phase is Phase.SHOW:
        shown = state.pending or (gs.played[gs.to_act] if gs.to_act is not None else ())
        return replace(base, screen=Screen.HAND, title="Show the hand", picker=pv,
                       lines=(" ".join(picker.rank_label(c.rank) for c in shown),),
                       hint="OK card  UNDO back")
    if gs.phase is Phase.CRIB:
        return replace(base, screen=Screen.CRIB, title="The crib", picker=pv,
                       lines=(" ".join(picker.rank_label(c.rank) for c in state.pending),),
                       hint="OK card  UNDO back")
    return replace(base, screen=Screen.MESSAGE, title="Pegboard", lines=(_score_line(gs),))
