"""Starting a game: the home screen, the new game's options, who deals first, the cut."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.app import club_setup, flow, pairing, picker, wheels
from pegboard.app.effects import AudioMode, PersistNewGame
from pegboard.app.inputs import InputEvent
from pegboard.app.keys import list_move
from pegboard.app.session import Session
from pegboard.app.state import (
    AppState,
    Confirm,
    Cutting,
    Dealer,
    Home,
    Page,
    Reading,
    Result,
    Setup,
    SetupScreen,
)
from pegboard.app.teach import lessons, offer_basics
from pegboard.app.view import PageKind, Screen, View
from pegboard.app.views import board, numbered
from pegboard.config import ClubConfig
from pegboard.rules.events import Cut, Deal, GameHeader
from pegboard.rules.state import GameState, Phase
from pegboard.rules.value import Value, replace
from pegboard.rules.variants import VARIANT_BY_KEY, VARIANTS

if TYPE_CHECKING:
    from pegboard.coach import rulehelp
else:
    rulehelp = lazy.module("pegboard.coach.rulehelp")

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fred", "Gran", "Grandad", "Mum", "Dad")
"""The short list of names offered at setup (after the default "P1".."P4")."""

HOME_ROWS = ("New game", "Learn to play", "Shut down")
"""The first screen: "Learn to play" is a new game with teaching on (the first-game coach)."""

TEACHING_HINT = "teaches a first game"
"""Setup's one line on what teaching does, shown while its row is chosen."""

OPEN_HANDS_HINT = "all hands entered, shown"
"""Setup's one line on open hands: a first game played open-handed, every hand entered at the
deal, with the advice before the discard (:mod:`pegboard.app.open_hands`)."""

OWN_COUNT_HINT = "you count, box checks"
"""Setup's one line on count it yourself: at the show the owner says a count before the box
shows its own (no penalty)."""

SETUP_HINT = "OK change  UNDO back"

AUDIO_HINT = "says every card and row"
"""Setup's one line on what audio mode does, shown while its row is chosen."""

SPEECH_HINT = "terse: counts by total"
"""Setup's one line on the speech style: terse says the same facts in fewer words."""

LARGE_PRINT_HINT = "big digits and cards"
"""Setup's one line on large print: the scores, the count and the card being chosen big."""


class OptionRow(Value):
    """A table option's row at setup: its label, what OK does to it, its one line of help
    (shown while the row is chosen) and whether the row is offered for these choices."""

    __slots__ = ("change", "hint", "key", "label", "offered")
    __match_args__ = ("key", "label", "change", "hint", "offered")

    key: str
    label: Callable[[Setup], str]
    change: Callable[[Setup], Setup]
    hint: str
    offered: Callable[[Setup], bool]

    def __init__(
        self,
        key: str,
        label: Callable[[Setup], str],
        change: Callable[[Setup], Setup],
        hint: str = SETUP_HINT,
        offered: Callable[[Setup], bool] = lambda setup: True,
    ) -> None:
        setter = object.__setattr__
        setter(self, "key", key)
        setter(self, "label", label)
        setter(self, "change", change)
        setter(self, "hint", hint)
        setter(self, "offered", offered)


def _on(value: bool) -> str:
    return "on" if value else "off"


OPTION_ROWS = (
    OptionRow("entry", lambda s: f"Enter: {'points only' if s.points_only else 'cards'}",
              lambda s: replace(s, points_only=not s.points_only)),
    OptionRow("teaching", lambda s: f"Teaching: {_on(s.teaching)}",
              lambda s: replace(s, teaching=not s.teaching), TEACHING_HINT),
    OptionRow("open", lambda s: f"Open hands: {_on(s.open_hands)}",
              lambda s: replace(s, open_hands=not s.open_hands), OPEN_HANDS_HINT,
              offered=lambda s: s.teaching),
    OptionRow("own", lambda s: f"Count it yourself: {_on(s.count_yourself)}",
              lambda s: replace(s, count_yourself=not s.count_yourself), OWN_COUNT_HINT,
              offered=lambda s: s.teaching),
    OptionRow("print", lambda s: f"Large print: {_on(s.large_print)}",
              lambda s: replace(s, large_print=not s.large_print), LARGE_PRINT_HINT),
    OptionRow("audio", lambda s: f"Audio: {_on(s.audio)}",
              lambda s: replace(s, audio=not s.audio), AUDIO_HINT),
    OptionRow("speech", lambda s: f"Speech: {'terse' if s.terse else 'full'}",
              lambda s: replace(s, terse=not s.terse), SPEECH_HINT,
              offered=lambda s: s.audio),
)
"""The table options at setup, in order, after the seats and the rule variants: the one
table setup's rows, changes and hints come from (count it yourself is a teaching option,
offered while teaching is on; large print, audio mode and the speech style (offered in audio
mode), last, are the device's and not the game's: each is a turn or a few back from Start,
and takes effect as soon as it is chosen).
Open hands, a teaching option too, is on when "Learn to play" is chosen."""
OPTION_BY_KEY = {row.key: row for row in OPTION_ROWS}


# -- home --------------------------------------------------------------------------------------


def home_move(state: AppState, screen: Home, event: InputEvent) -> Result:
    """Turn or GO moves; OK (or key 1/2) chooses."""
    index, row = list_move(screen.index, event, len(HOME_ROWS))
    if row == 0:
        return replace(state, screen=SetupScreen()), ()
    if row == 1:
        # A first game is taught open-handed: every hand entered and shown.
        return replace(state, setup=replace(state.setup, teaching=True, open_hands=True),
                       screen=SetupScreen()), ()
    if row == 2:
        return replace(state, screen=Confirm("shutdown", Home(index))), ()
    return replace(state, screen=Home(index)), ()


def home_view(state: AppState, screen: Home) -> View:
    return View(Screen.HOME, "Pegboard", numbered(state.keypad, list(HOME_ROWS)), screen.index,
                hint="OK choose")


# -- setup -------------------------------------------------------------------------------------


def setup_rows(setup: Setup, club: ClubConfig | None = None,
               screen: SetupScreen | None = None) -> list[tuple[str, str]]:
    """The options, "Start" first (one press starts the usual game): the seats, then a row for
    each rule variant the table can choose (:data:`~pegboard.rules.variants.VARIANTS`), then
    the table options. On a club board (``club`` enabled) the club's rows follow the seats,
    and under the night's lock one row says so in place of the help options."""
    rows = [("start", "Start"), ("players", f"Players: {setup.players}")]
    for seat in range(setup.players):
        rows.append((f"name{seat}", f"Seat {seat + 1}: {setup.names[seat]}"))
    on_club = club is not None and club.enabled
    if club is not None and club.enabled:
        rows += club_setup.rows(setup, club, screen)
    rows += [(variant.key, variant.row(setup.rules)) for variant in VARIANTS
             if variant.choices and setup.players in variant.seats]
    locked = on_club and club is not None and club.lock
    rows += [(row.key, row.label(setup)) for row in OPTION_ROWS if row.offered(setup)
             and not (locked and row.key in club_setup.HELP_ROWS)]
    if locked:
        rows.append(("club", club_setup.LOCK_ROW))
    return rows


def setup_move(state: AppState, screen: SetupScreen, event: InputEvent) -> Result:
    """OK on a row changes that option (round its choices); OK on Start starts the game
    (on a club board once every seat has its member number: app/club_setup)."""
    if screen.editing >= 0:
        return club_setup.edit(state, screen, event)
    rows = setup_rows(state.setup, state.config.club)
    index, row = list_move(screen.index, event, len(rows))
    state = replace(state, screen=SetupScreen(index))
    if row is None:
        return state, ()
    key = rows[row][0]
    seat = club_setup.missing(state.setup) if state.config.club.enabled else None
    if key == "start" and seat is not None:
        key = f"member{seat}"
        row = [k for k, _ in rows].index(key)
    if key.startswith("member"):
        return replace(state, screen=club_setup.start_editing(
            SetupScreen(), int(key[6:]), row)), ()
    if key == "start":
        return start_game(state)
    setup = _change(state.setup, key)
    turned = (AudioMode(setup.audio),) if setup.audio != state.setup.audio else ()
    return replace(state, setup=setup), turned


def setup_back(state: AppState, screen: SetupScreen, event: InputEvent) -> Result:
    """UNDO: a member number being entered is left as it was; else back home."""
    if screen.editing >= 0:
        return replace(state, screen=replace(screen, editing=-1, number=0)), ()
    return replace(state, screen=Home()), ()


def _change(s: Setup, key: str) -> Setup:
    if key in VARIANT_BY_KEY:
        return replace(s, rules=VARIANT_BY_KEY[key].next(s.rules))
    if key == "players":
        return replace(s, players=s.players % 4 + 1 if s.players < 4 else 2)
    if key.startswith("name"):
        return replace(s, names=_next_name(s, int(key[4:])))
    if key in ("club", "round", "guest"):
        return club_setup.change(s, key)
    return OPTION_BY_KEY[key].change(s)


def _next_name(s: Setup, seat: int) -> tuple[str, ...]:
    """The seat's next name on the list that no other seat has."""
    choices = (f"P{seat + 1}", *NAMES)
    taken = set(s.names[: s.players]) - {s.names[seat]}
    current = choices.index(s.names[seat]) if s.names[seat] in choices else 0
    candidate = s.names[seat]
    for k in range(1, len(choices) + 1):
        candidate = choices[(current + k) % len(choices)]
        if candidate not in taken:
            break
    names = list(s.names)
    names[seat] = candidate
    return tuple(names)


def start_game(state: AppState) -> Result:
    """A new game with the chosen options, recorded in its header."""
    s = state.setup
    header = GameHeader(tuple(s.names[: s.players]), s.game_rules(), table=s.table())
    club = state.config.club
    if club.enabled:  # a club board: every game is the night's (app/club_setup)
        header = replace(header, table=club_setup.options(header.table, club),
                         club=club_setup.seat(s, club))
        state = replace(state, setup=club_setup.after(s))
    session = Session.new(header)
    state = replace(state, session=session, award="", entered="", helped=frozenset(),
                    offers_shown=0, phones=frozenset(), let_go=None)
    state = replace(state, screen=flow.table_screen(state))
    if state.teaching:
        state = offer_basics(state)
    phones = pairing.offer(state)  # each seat's join code, once the game is saved
    return state, (PersistNewGame(session.header), *((phones,) if phones else ()))


def setup_view(state: AppState, screen: SetupScreen) -> View:
    keys = setup_rows(state.setup, state.config.club, screen)
    rows = [label for _, label in keys]
    chosen = OPTION_BY_KEY.get(keys[min(screen.index, len(keys) - 1)][0])
    hint = chosen.hint if chosen is not None else SETUP_HINT
    if screen.editing >= 0:
        hint = club_setup.EDIT_HINT
    return View(Screen.SETUP, "New game", numbered(state.keypad, rows), screen.index,
                hint=hint)


# -- who deals ---------------------------------------------------------------------------------


def dealer_rows(state: AppState) -> list[str]:
    assert state.session is not None
    return ["Cut for deal", *(f"{name} deals" for name in state.session.header.players)]


def dealer_move(state: AppState, screen: Dealer, event: InputEvent) -> Result:
    """Cut for deal, or name the dealer."""
    index, row = list_move(screen.index, event, len(dealer_rows(state)))
    if row is None:
        return replace(state, screen=Dealer(index)), ()
    if row == 0:
        return replace(state, screen=Cutting()), ()
    return flow.enter(state, Deal(dealer=row - 1))


def dealer_view(state: AppState, screen: Dealer) -> View:
    assert state.session is not None
    base = board(state.session.state, Screen.DEALER, "Who deals first?")
    return replace(base, lines=numbered(state.keypad, dealer_rows(state)),
                   selected=screen.index % len(dealer_rows(state)), hint="OK choose")


# -- the cut -----------------------------------------------------------------------------------


def _cut_wheel(screen: Cutting) -> tuple[list[picker.Slot], int]:
    return wheels.plain_wheel(set(screen.cards), None)


def cut_key(state: AppState, screen: Cutting, event: InputEvent) -> Result:
    """Each seat's cut card in turn; the lowest deals (a tie for lowest cuts again)."""
    assert state.session is not None
    slots, start = _cut_wheel(screen)
    wheel, chosen = wheels.pick(screen.wheel, event, slots, start)
    if chosen is None:
        return replace(state, screen=replace(screen, wheel=wheel)), ()
    cards = (*screen.cards, chosen.card)
    if len(cards) < len(state.session.header.players):
        return replace(state, screen=Cutting(cards)), ()
    new, effects = flow.enter(state, Cut(cards))
    if new.session is not None and new.session.state.phase is Phase.CUT and effects:
        tie = Page("A tie", ("Lowest cards tie:", "cut again."))
        new = replace(new, screen=Reading((tie,), then=Cutting()))
    elif new.session is not None and new.session.state.dealer is not None and effects:
        gs = new.session.state
        names, dealer = gs.names, gs.dealer
        assert dealer is not None
        lines = tuple(f"{names[i]} cut {picker.rank_label(c.rank)}" for i, c in enumerate(cards))
        # The deal after the cut is the table's: the coach says how to deal all the same.
        coached, steps = lessons(new, gs, Deal(), ())
        # Without the coach, the page the table reads anyway says it in a line.
        how = () if coached else (how_to_deal(gs),)
        page = Page("The cut", (*lines, f"{names[dealer]} deals: low card", *how),
                    kind=PageKind.CUT)
        new = replace(new, helped=new.helped | steps, screen=Reading((page, *coached)))
    return new, effects


def how_to_deal(gs: GameState) -> str:
    """The deal in one line of the screen: "Deal 6, lay 2 away" (RULES.md, "The deal")."""
    dealt = gs.rules.dealt_size(gs.players)
    return f"Deal {dealt}, lay {dealt - gs.rules.hand_size()} away"


def cut_back(state: AppState, screen: Cutting, event: InputEvent) -> Result:
    """UNDO takes back the last cut card, then leaves the cut."""
    if screen.cards:
        return replace(state, screen=Cutting(screen.cards[:-1])), ()
    return replace(state, screen=Dealer()), ()


def cut_view(state: AppState, screen: Cutting) -> View:
    assert state.session is not None
    gs = state.session.state
    slots, start = _cut_wheel(screen)
    names = gs.names
    prompt = f"{names[len(screen.cards)]} cuts"
    lines = tuple(f"{names[i]}: {picker.rank_label(c.rank)}" for i, c in enumerate(screen.cards))
    return replace(board(gs, Screen.CUT, "Cut for deal"), lines=lines, hint="lowest card deals",
                   picker=wheels.picker_view(prompt, slots, screen.wheel, start,
                                             suitless=True))
