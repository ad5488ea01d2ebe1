"""The app: ``step(state, event, now) -> (state, effects)`` and ``view(state)``.

Pure: no I/O, no clock (``now`` is seconds from the loop's injected clock), no randomness.
The loop keeps the latest state, runs the returned effects in order (persisting first), and
draws ``view(state)`` when it differs from the last frame.

What each key does on each screen is one table, :mod:`pegboard.app.transitions`; the screens
are modules of their own (:mod:`~pegboard.app.start`, :mod:`~pegboard.app.table`,
:mod:`~pegboard.app.show`, :mod:`~pegboard.app.menus`, :mod:`~pegboard.app.pegging`,
:mod:`~pegboard.app.game_over`, :mod:`~pegboard.app.help`), and what the table does after an
entry is :mod:`pegboard.app.flow`.

Idle: after ``idle.dim_after_s`` seconds without input the screen dims, after
``idle.blank_after_s`` it blanks (``Tick`` events let the app notice time passing). Any input
wakes the screen, and the waking input does nothing else, so a player who nudges a dark box
never enters a card by accident (in audio mode the key still does what it does: the player
who listens cannot see that the screen was dark).

Audio mode (docs/accessibility.md): holding GO as the first key after power-on turns it on
(never off: a player who cannot see, holding GO to hear the screen again, must not silence
the box; the setup row turns it off); while it is on, each key also asks for its short
sound (:class:`Earcon`): a click for a move, a tone for a key taken, another for a key
refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.app import flow, views
from pegboard.app.effects import (
    AudioMode,
    Earcon,
    Effect,
    LedSide,
    ReadScreen,
    SayAgain,
    SayScore,
    SetBrightness,
    UpdateLeds,
)
from pegboard.app.inputs import (
    ClubNight,
    ClubStatus,
    InputEvent,
    KnobTurn,
    LinkStatus,
    Pairing,
    PhoneSeats,
    SeatEntry,
    Tick,
)
from pegboard.app.keys import Key, key_of
from pegboard.app.session import Session
from pegboard.app.state import (
    AppState,
    Calling,
    CardEntry,
    Confirm,
    Cutting,
    Dealer,
    HelpScreen,
    Home,
    Menu,
    OwnCount,
    Page,
    PenaltyScreen,
    Reading,
    Result,
    Setup,
    SetupScreen,
    WheelScreen,
)
from pegboard.app.transitions import dispatch, view_of
from pegboard.app.view import Brightness, PageKind, View
from pegboard.app.words import offer_page, score_line
from pegboard.config import Config
from pegboard.record.reader import RawLine
from pegboard.rules.game import Game
from pegboard.rules.state import Phase
from pegboard.rules.value import replace

if TYPE_CHECKING:
    from pegboard.app import club_notice, open_hands, pairing, seat_entry, sounds, teach
    from pegboard.app import pages as app_pages
else:
    app_pages = lazy.module("pegboard.app.pages")
    club_notice = lazy.module("pegboard.app.club_notice")
    open_hands = lazy.module("pegboard.app.open_hands")
    pairing = lazy.module("pegboard.app.pairing")
    seat_entry = lazy.module("pegboard.app.seat_entry")
    sounds = lazy.module("pegboard.app.sounds")
    teach = lazy.module("pegboard.app.teach")

__all__ = ["AppState", "initial_state", "step", "view"]


def initial_state(config: Config, *, resume: Sequence[RawLine] | Game | None = None,
                  notice: tuple[str, ...] = (), names: Sequence[str] = (),
                  phone_made: frozenset[int] = frozenset()) -> AppState:
    """The state at power-on; ``resume`` is an unfinished game to continue: its record lines,
    or the game the store already replayed.

    A resumed game continues exactly where it stopped (its table options with it), with a
    notice saying so. ``notice`` (a title, then lines) is a page shown first: what the store
    had to do at start (a damaged game restored in part, or set aside). ``names`` are the
    seat names of the last game kept: the next game's setup starts with them (a resumed
    game's own names win). ``phone_made``: which of the resumed game's entries in force a
    phone made (see ``AppState.phone_made``).
    """
    setup = Setup(players=config.players, rules=config.rules, audio=config.voice.audio,
                  terse=config.voice.style == "terse",
                  large_print=config.display.large_print)
    state = AppState(config=config, setup=seated(setup, names))
    first = (Page(notice[0], notice[1:]),) if notice else ()
    if resume is None or (not isinstance(resume, Game) and not resume):
        return replace(state, screen=Reading(first, then=Home())) if first else state
    session = Session.resume(resume)
    gs = session.state
    state = replace(state, session=session, offers_shown=len(gs.offers),
                    setup=seated(state.setup, gs.names), helped_unread=True,
                    phone_made=phone_made)
    page = Page("Game restored", (score_line(gs), "OK to go on"))
    if gs.held_counts:  # count it yourself: the board as before the count still held
        held = gs.held_counts[0]
        board = replace(gs, scores=held.scores, back_pegs=held.back_pegs)
        page = Page("Game restored", (score_line(board), "OK to go on"),
                    sides=views.sides(board))
    # A penalty offered on screen when the power went is put to the table again.
    offers = tuple(offer_page(gs, offer) for offer in flow.standing_offers(session))
    return replace(state, screen=Reading((*first, page, *offers)))


def seated(setup: Setup, names: Sequence[str]) -> Setup:
    """``setup`` with the seats named as ``names`` (the rest keep theirs), so a table's
    names stay chosen for its next game, across a restart too."""
    kept = [*names[: len(setup.names)], *setup.names[len(names):]]
    return replace(setup, names=tuple(kept))


def _phones_joined(state: AppState) -> AppState:
    """An open-handed deal's question for a seat's dealt cards gives way when a phone now
    holds that seat (and none of them is entered yet): the box never asks for a phone's
    cards. The other way round, a seat the starter waited for whose phone is released falls
    back to the box: its cards are asked there."""
    screen = state.screen
    if (isinstance(screen, CardEntry) and screen.purpose == open_hands.ADVICE
            and screen.player in state.phones and not screen.cards and state.session is not None
            and not state.table.points_only):
        return replace(state, screen=flow.table_screen(state))
    if (isinstance(screen, WheelScreen) and not screen.pending and state.session is not None
            and open_hands.open_hands(state) and state.session.state.phase is Phase.STARTER
            and open_hands.next_entry(state) is not None):
        return replace(state, screen=flow.table_screen(state))
    return state


def step(state: AppState, event: InputEvent, now: float) -> Result:
    """Apply one input event at time ``now``; return the new state and the effects to run."""
    if isinstance(event, LinkStatus):
        return replace(state, link="" if event.up else (event.detail or "LEDs off")), ()
    if isinstance(event, ClubStatus):  # the club publisher's word: not a key
        return club_notice.arrived(state, event), ()
    if isinstance(event, ClubNight):  # the standings service's night: not a key
        return club_notice.night(state, event), ()
    if isinstance(event, Tick):
        return _idle(state, now)
    if isinstance(event, SeatEntry):  # a phone's entry: not a key, but the pegs follow it
        before_leds = _leds(state)
        new, effects = seat_entry.enter(state, event, now)
        after_leds = _leds(new)
        if after_leds is not None and after_leds != before_leds:
            effects = (*effects, after_leds)
        return new, effects
    if isinstance(event, Pairing):  # the pairing port's answer: not a key
        return pairing.arrived(state, event)
    if isinstance(event, PhoneSeats):  # a phone joined, or the board started: not a key
        return _phones_joined(pairing.held(state, event.seats)), ()
    waking: tuple[Effect, ...] = ()
    if state.brightness is not Brightness.NORMAL:
        awake = replace(state, brightness=Brightness.NORMAL, last_input=now)
        if not state.audio:
            return awake, (SetBrightness(Brightness.NORMAL),)
        state, waking = awake, (SetBrightness(Brightness.NORMAL),)
    key = key_of(event)
    if state.fresh and key is Key.HOLD_GO and not state.audio:
        return replace(state, setup=replace(state.setup, audio=True), fresh=False,
                       last_input=now), (*waking, AudioMode(True))
    state = replace(state, last_input=now, fresh=False)
    before = _leds(state)
    new, effects = dispatch(state, event)
    new = _basics(new)
    if new.score_held and key is not Key.MENU:  # only a hold right after it opens the menu
        new = replace(new, score_held=False)
    after = _leds(new)
    if after is not None and after != before:
        effects = (*effects, after)
    if state.audio and new.audio and key is not None:
        effects = (*_earcon(state, new, event, effects), *effects)
    return new, (*waking, *effects)


def _basics(state: AppState) -> AppState:
    """Teaching turned on (from the menu) before the game's first card: the basics are offered
    as the table's screen comes back, as at the start of a teaching game, once a game."""
    session = state.session
    if (session is None or not state.teaching or not isinstance(state.screen, _FIRST_ENTRY)
            or not teach.before_the_first_card(session.state)):
        return state
    state = flow.read_lessons(state)  # a resumed game: were they offered before?
    return state if teach.BASICS[0] in state.helped else teach.offer_basics(state)


_FIRST_ENTRY = (Dealer, Cutting, WheelScreen, CardEntry)
"""The screens on which a game's first card is entered (the cut, the starter, an open
hand's dealt cards)."""


_ASKED = (SayAgain, SayScore, ReadScreen)


def _earcon(state: AppState, new: AppState, event: InputEvent, effects: tuple[Effect, ...],
            ) -> tuple[Earcon, ...]:
    """Audio mode's sound for a key: refused when it changed nothing (or brought up "Not
    allowed"), a click for each detent or list step it moved, else the tone of a key taken;
    none when the key asked the voice for something."""
    key = key_of(event)
    if any(isinstance(effect, _ASKED) for effect in effects):
        return ()
    screen = new.screen
    if (new == state and not effects) or (
            isinstance(screen, Reading) and screen.pages
            and screen.pages[0].kind is PageKind.REFUSED and screen is not state.screen):
        return (Earcon(sounds.Sound.REFUSED),)
    moved = key is Key.TURN or (key is Key.GO and not effects and isinstance(screen, _LISTS)
                                and type(screen) is type(state.screen))
    if not moved:
        return (Earcon(sounds.Sound.OK),)
    detents = abs(event.steps) if isinstance(event, KnobTurn) else 1
    return (Earcon(sounds.Sound.CLICK),) * min(detents, MAX_CLICKS)


MAX_CLICKS = 12
"""The most clicks one step asks for (a fast spin's detents come as one turn)."""

_LISTS = (Home, SetupScreen, Dealer, Menu, Confirm, Calling, HelpScreen, PenaltyScreen)
"""Screens whose GO moves down a list (a click, like a turn of the knob)."""


def view(state: AppState) -> View:
    """What the screen shows in ``state``."""
    club = state.session.header.club if state.session is not None else None
    shown = view_of(state)
    if state.club and isinstance(state.screen, Home):
        shown = replace(shown, hint=club_notice.HOME_HINT)
    return replace(shown, link=state.link, brightness=state.brightness,
                   large_print=state.setup.large_print, locked=club is not None and club.lock,
                   entered=state.entered)


def scores(state: AppState) -> tuple[int, ...] | None:
    """Each side's score in the game being played (None when there is none)."""
    return None if state.session is None else tuple(state.session.state.scores)


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


def _leds(state: AppState) -> UpdateLeds | None:
    """The pegs on the LED board: the board on screen (a count being read shows the pegs as
    they stood when it was pegged, like the OLED's header), else the game's; the side that
    scored is the one whose act the engine reported (for a page, the act it shows)."""
    if state.session is None:
        return None
    gs = state.session.state
    screen = state.screen
    page = screen.pages[0] if isinstance(screen, Reading) and screen.pages else None
    if page is not None and page.sides is not None:
        return UpdateLeds(tuple(LedSide(s.score, s.back, s.winner) for s in page.sides),
                          gs.rules.target, page.scored)
    if isinstance(screen, OwnCount) and screen.pages[0].before is not None:
        # Count it yourself: the pegs give no count away before its owner has said one.
        before = screen.pages[0].before
        return UpdateLeds(tuple(LedSide(s.score, s.back, s.winner) for s in before),
                          gs.rules.target, None)
    sides = tuple(
        LedSide(gs.shown[s], gs.back_pegs[s], gs.winner == s) for s in range(gs.sides)
    )
    return UpdateLeds(sides, gs.rules.target, app_pages.last_scored(state.session.report))
