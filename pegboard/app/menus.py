"""The menu and what it opens: a muggins call (:mod:`pegboard.app.calls`), undo, hints and
advice, pegging by points, penalties, the scores, rule help, table options, ending the game,
shutting down.

The menu opens over any screen (MENU, or holding OK on the keypad kit) and UNDO or "Back"
returns to that very screen; holding MENU asks to shut down.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.app import calls, flow, pairing
from pegboard.app.club_setup import LOCK_ROW
from pegboard.app.coach import COUNT_TITLE
from pegboard.app.effects import (
    BringUp,
    Effect,
    FinishGame,
    Persist,
    PowerOff,
    ReadScreen,
    SayAgain,
    SayScore,
)
from pegboard.app.inputs import InputEvent
from pegboard.app.keys import list_move
from pegboard.app.open_hands import open_hands
from pegboard.app.state import (
    AppState,
    CardEntry,
    Confirm,
    HelpScreen,
    Home,
    Menu,
    Page,
    PenaltyScreen,
    QuickPeg,
    Reading,
    Result,
    Saved,
    Scores,
    ScreenState,
    SetupScreen,
    WheelScreen,
)
from pegboard.app.view import Screen, View
from pegboard.app.views import board, numbered
from pegboard.app.words import no_suits, scores_lines, wrap
from pegboard.rules.events import ClubSeat, OptionsChanged
from pegboard.rules.state import GameState, Phase
from pegboard.rules.value import replace

if TYPE_CHECKING:
    from pegboard.app import review_pages
    from pegboard.coach import knowledge, lookahead
else:
    knowledge = lazy.module("pegboard.coach.knowledge")
    lookahead = lazy.module("pegboard.coach.lookahead")
    review_pages = lazy.module("pegboard.app.review_pages")

_OVERLAYS = (Menu, Confirm, Saved, Scores, PenaltyScreen, HelpScreen, CardEntry)


def open_menu(state: AppState, screen: ScreenState, event: InputEvent) -> Result:
    """The menu over the current screen (over a screen the menu opened, over what that
    screen was opened from). In audio mode on the keypad kit, whose MENU is OK held (so it
    has no MENU held), the hold says the score and does nothing else, so the standing is
    one hold away there too and asking for it leaves the table where it is; held again at
    once, it opens the menu."""
    if isinstance(screen, Menu | Confirm | Saved):
        return state, ()
    if state.audio and state.keypad and not state.score_held:
        return replace(state, score_held=True), (SayScore(),)
    under = screen.under if isinstance(screen, _OVERLAYS) else screen
    return replace(state, screen=Menu(under), score_held=False), ()


def read_aloud(state: AppState, screen: ScreenState, event: InputEvent) -> Result:
    """Holding GO with the voice on: the screen read aloud (for weak eyes); else nothing."""
    return state, ((ReadScreen(),) if state.speaking else ())


def say_again(state: AppState, screen: ScreenState, event: InputEvent) -> Result:
    """Audio mode, GO held: the last thing said, said again (a refusal too)."""
    return state, (SayAgain(),)


def say_score(state: AppState, screen: ScreenState, event: InputEvent) -> Result:
    """Audio mode, MENU held: the standing said (each side's score, the count, who acts)."""
    return state, (SayScore(),)


def ask_shutdown(state: AppState, screen: ScreenState, event: InputEvent) -> Result:
    """Holding MENU: "Shut down?" over the current screen."""
    if isinstance(screen, Saved | Confirm):
        return state, ()
    under = screen.under if isinstance(screen, _OVERLAYS) else screen
    return replace(state, screen=Confirm("shutdown", under)), ()


def night_locked(state: AppState) -> bool:
    """The board's club night is under the tournament lock (``[club]`` in the config): every
    club game started tonight is."""
    return state.config.club.enabled and state.config.club.lock


BRINGUP_ROW = "Test the box"
"""The home menu's row for the bring-up tests (:class:`~pegboard.app.effects.BringUp`): only
between games, since the tests take the keys over."""


def menu_rows(state: AppState, under: ScreenState) -> list[tuple[str, str]]:
    """The menu's rows for where the player is (under a club night's tournament lock no
    hint, advice, teaching, count it yourself or game review is offered, and the menu says
    so; a guest may still ask for a hint on their own turn and advice on their own cards)."""
    teach = ("teaching", f"Teaching: {'on' if state.teaching else 'off'}")
    club = state.session.header.club if state.session is not None else None
    if (club is not None and club.lock) or (state.session is None and night_locked(state)):
        teach = ("back", LOCK_ROW)
    if state.session is None:
        return [("back", "Back"), ("new", "New game"), ("help", "Rule help"), teach,
                ("bringup", BRINGUP_ROW), ("shutdown", "Shut down")]
    gs = state.session.state
    rows = [("back", "Back")]
    # An opponent's muggins call comes first: it must be made before the next score.
    rows += [(f"muggins {p}", f"Muggins: {gs.names[p]}") for p in calls.callers(state)]
    # A seat taken on the box from its phone: Phones comes next, so giving the phone back
    # is one row away (the box's notice said "menu, Phones") until its phone is back.
    phones_first = state.let_go is not None and state.let_go not in state.phones
    if phones_first and pairing.offer(state) is not None:
        rows.append(("phones", pairing.MENU_ROW))
    if gs.phase is Phase.GAME_OVER and not (club is not None and club.lock):
        rows.append(("review", "Review the game"))  # teaching too: not on a locked night
    if state.speaking:
        rows.append(("again", "Say it again"))
    if any(not isinstance(e, OptionsChanged) for e in state.session.events):
        rows.append(("undo", "Undo last entry"))
    if isinstance(under, WheelScreen):
        rows += _table_help(gs, club)
    if gs.phase is not Phase.GAME_OVER:
        rows.append(("peg", "Peg points"))
    rows += [("penalty", "Penalty"), ("scores", "Scores")]
    if gs.phase is not Phase.GAME_OVER:
        entry = "Enter cards" if state.table.points_only else "Enter points only"
        rows.append(("entry", entry))
    if pairing.offer(state) is not None and not phones_first:
        rows.append(("phones", pairing.MENU_ROW))
    rows += [("help", "Rule help"), teach]
    if state.teaching:
        rows.append(("own", f"Count it yourself: {'on' if state.table.count_yourself else 'off'}"))
    rows += [("end", "End game"), ("shutdown", "Shut down")]
    return rows


def _table_help(gs: GameState, club: ClubSeat | None) -> list[tuple[str, str]]:
    """The help rows offered over the table: a pegging hint for the player to act, discard
    advice before the starter (under the lock only a guest's, on their own turn or cards)."""
    if gs.phase is Phase.PLAY and gs.to_act is not None and (club is None or club.helps(gs.to_act)):
        return [("hint", "Pegging hint")]
    if gs.phase is not Phase.STARTER:
        return []
    if club is None or not club.lock:
        return [("advice", "Discard advice")]
    if club.guests:
        return [("advice", f"Advice for {gs.names[club.guests[0]]} (guest)")]
    return []


_OPENS: dict[str, Callable[[AppState, ScreenState], ScreenState]] = {
    "new": lambda state, under: SetupScreen(),
    "hint": lambda state, under: _hint(state, under),
    "advice": lambda state, under: CardEntry("advice", under, _guest(state)),
    "peg": lambda state, under: QuickPeg(under=under),
    "penalty": lambda state, under: PenaltyScreen(under),
    "scores": lambda state, under: Scores(under),
    "help": lambda state, under: HelpScreen(under),
    "review": lambda state, under: _review(state, under),
}
"""The menu rows that open a screen over the one the menu was opened on."""


def _review(state: AppState, under: ScreenState) -> ScreenState:
    """The game's review, page by page, then back to the game-over screen."""
    assert state.session is not None
    return Reading(review_pages.review_pages(state.session), then=under)


def menu_move(state: AppState, screen: Menu, event: InputEvent) -> Result:
    rows = menu_rows(state, screen.under)
    index, row = list_move(screen.index, event, len(rows))
    if row is None:
        return replace(state, screen=Menu(screen.under, index)), ()
    key = rows[row][0]
    under = screen.under
    back = replace(state, screen=under)
    if key in _OPENS:
        return replace(state, screen=_OPENS[key](state, under)), ()
    if key == "back":
        return back, ()
    if key.startswith("muggins "):
        return calls.call(back, int(key.split()[1]))
    if key == "again":
        return back, (SayAgain(),)
    if key == "bringup":
        return back, (BringUp(),)
    if key == "phones":
        phones = pairing.offer(state)
        return back, (phones,) if phones is not None else ()
    if key == "undo":
        return flow.undo(back)
    if key == "teaching":
        new, effects = set_option(state, OptionsChanged(teaching=not state.teaching))
        return replace(new, screen=Menu(under, index)), effects
    if key == "own":
        changed = OptionsChanged(count_yourself=not state.table.count_yourself)
        new, effects = set_option(state, changed)
        return replace(new, screen=Menu(under, index)), effects
    if key == "entry":
        new, effects = set_option(state, OptionsChanged(points_only=not state.table.points_only))
        settled, more = flow.settle(new)
        return settled, effects + more
    return replace(state, screen=Confirm(key, under)), ()


def menu_back(state: AppState, screen: Menu, event: InputEvent) -> Result:
    return replace(state, screen=screen.under), ()


def _guest(state: AppState) -> int | None:
    """Whose advice: under the tournament lock the guest's (the only one it may help), else
    chosen on the next screen."""
    club = state.session.header.club if state.session is not None else None
    return club.guests[0] if club is not None and club.lock and club.guests else None


HINT_TITLE = "Coach: your card"
"""The pegging hint's page when the box knows the player's hand, in an open-handed game."""
HINT_COUNT_TITLE = COUNT_TITLE
"""The pegging hint's page when the box knows the player's hand, in a closed game."""


def _hint(state: AppState, under: ScreenState) -> ScreenState:
    """A pegging hint, at once and in full, never asking for cards: in an open-handed game,
    the player's hand known, the card to lay two cards ahead and why; in a closed game what
    the count offers (the rank that scores on it, the count to keep clear of), naming none
    of the player's cards. The screen and the voice are shared and a closed hand is the
    player's own, so the box neither asks for it on the table's screen nor names a card of
    it, whatever it knows of it (a dealt card may be in the crib)."""
    assert state.session is not None
    gs = state.session.state
    if open_hands(state):
        known = knowledge.knowledge_for(gs)
        if known is not None and known.own is knowledge.OwnCards.KEPT:
            line = lookahead.card_line(known) or "No card fits under 31: say go."
            return Reading((Page(HINT_TITLE, wrap(no_suits(line))),), then=under)
    return Reading((Page(HINT_COUNT_TITLE, wrap(lookahead.count_line(gs.pile))),), then=under)


def set_option(state: AppState, option: OptionsChanged) -> Result:
    """Change a table option: in the game's record when a game is on, else for the next."""
    if state.session is None:
        setup = state.setup
        if option.teaching is not None:
            setup = replace(setup, teaching=option.teaching)
        return replace(state, setup=setup), ()
    session, _ = state.session.apply(option)
    effects: tuple[Effect, ...] = (Persist(option, session.report),)
    return replace(state, session=session), effects


def menu_view(state: AppState, screen: Menu) -> View:
    rows = [label for _, label in menu_rows(state, screen.under)]
    return View(Screen.MENU, "Menu", numbered(state.keypad, rows), screen.index % len(rows),
                hint="OK choose  UNDO back")


# -- confirm, saved, scores --------------------------------------------------------------------

QUESTIONS = {"shutdown": "Shut down?", "end": "End this game?"}


def confirm_move(state: AppState, screen: Confirm, event: InputEvent) -> Result:
    """No (the first row) goes back; Yes shuts down, or ends the game."""
    index, row = list_move(screen.index, event, 2)
    if row is None:
        return replace(state, screen=replace(screen, index=index)), ()
    if row == 0:
        return replace(state, screen=screen.under), ()
    if screen.what == "shutdown":
        return replace(state, screen=Saved()), (PowerOff(),)
    return finish(state)


def confirm_back(state: AppState, screen: Confirm, event: InputEvent) -> Result:
    return replace(state, screen=screen.under), ()


def confirm_view(state: AppState, screen: Confirm) -> View:
    return View(Screen.CONFIRM, QUESTIONS.get(screen.what, "Sure?"),
                numbered(state.keypad, ["No", "Yes"]), screen.index % 2)


def finish(state: AppState) -> Result:
    """Leave the current game for the history (finished, or abandoned if not over) and go
    home."""
    effects: tuple[Effect, ...] = ()
    if state.session is not None:
        effects = (FinishGame(state.session.state),)
    home = replace(state, screen=Home(), session=None, award="", phones=frozenset())
    return home, effects


def saved_view(state: AppState, screen: Saved) -> View:
    if state.session is None:
        return View(Screen.SAVED, "Pegboard", ("Goodbye",))
    gs = state.session.state
    return replace(board(gs, Screen.SAVED, "Game saved"), lines=("Turn on to continue",))


def nothing(state: AppState, screen: ScreenState, event: InputEvent) -> Result:
    """A key that does nothing on this screen."""
    return state, ()


def scores_back(state: AppState, screen: Scores, event: InputEvent) -> Result:
    return replace(state, screen=screen.under), ()


def scores_view(state: AppState, screen: Scores) -> View:
    assert state.session is not None
    gs = state.session.state
    return replace(board(gs, Screen.SCORES, f"Game {gs.game_no}, deal {gs.deal_no}"),
                   lines=scores_lines(gs), hint="OK back")
