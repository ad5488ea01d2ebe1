"""The table's card wheel: the starter, every card of the play, a hand to show, the crib.

Which of them is asked follows from the engine's phase. In the play GO says go for the
player to act, but on a lead (at 0 every card fits: a go is refused) it jumps; elsewhere GO
jumps the wheel ahead by group of ranks; a held GO jumps it back a group everywhere. A hand's
or the crib's cards are kept on the screen until the last one, then entered as one entry;
UNDO takes back the last of them first.
"""

from __future__ import annotations

from pegboard.app import calls, flow, resuit, wheels
from pegboard.app.effects import FactsEntered
from pegboard.app.inputs import Button, InputEvent, KnobTurn, Press, RankKey
from pegboard.app.keys import Key, key_of
from pegboard.app.open_hands import (
    FALL_BACK_HINT,
    open_hands,
    waiting_for_phones,
    waiting_words,
)
from pegboard.app.picker import rank_label
from pegboard.app.session import Session
from pegboard.app.state import AppState, FallBack, Reading, Result, Wheel, WheelScreen
from pegboard.app.suit_facts import entered_words
from pegboard.app.teach import turn_card, turn_coach
from pegboard.app.view import PageKind, PickerView, Screen, View
from pegboard.app.views import board
from pegboard.app.words import heading, wrap
from pegboard.coach.help_shape import LINE_WIDTH
from pegboard.rules.cards import Card, Suit
from pegboard.rules.events import Crib, Go, Play, Show, Starter, StarterSuit
from pegboard.rules.facts import SaidGo
from pegboard.rules.state import GameState, Phase, SuitQuestion
from pegboard.rules.value import replace

WAIT_ROWS = 4
"""The rows of the box's wait for phones' hands above its hint (the text screen's five, less
the hint's)."""


def _gs(state: AppState) -> GameState:
    assert state.session is not None
    return state.session.state


def _wheel(state: AppState, screen: WheelScreen) -> wheels.Found | None:
    session = state.session
    assert session is not None
    shown = open_hands(state)
    # An open-handed teaching game's play wheel starts on the card the coach's line names.
    coached = turn_card(state)
    return session.memo(("table wheel", screen.pending, screen.anchor, shown, state.phones,
                         coached),
                        lambda: wheels.table_wheel(session.state, goes_this_deal(session),
                                                   screen.pending, screen.anchor,
                                                   open_hands=shown, phones=state.phones,
                                                   coached=coached))


def goes_this_deal(session: Session) -> tuple[SaidGo, ...]:
    """Every go the engine reported since this deal's starter."""
    start = wheels.last_starter(session.events)
    if start < 0:
        return ()
    return tuple(go for report in session.game.reports(start + 1) for go in report.of(SaidGo))


def wheel_key(state: AppState, screen: WheelScreen, event: InputEvent) -> Result:
    """Turn, OK, hold OK, GO (jump) and rank keys on the wheel."""
    asked = _gs(state).asked
    if asked is not None and isinstance(event, RankKey):
        # The starter's suit asked: keys 1 to 4 name clubs to spades; another key is told
        # which keys those are, and a suit the starter cannot have the engine's reason.
        suit = wheels.KEYPAD_SUITS.get(event.rank)
        if suit is None:
            keys = wheels.suit_keys(asked, wheels.offered_suits(_gs(state), state.phones))
            return flow.refuse(state, f"The starter's suit is asked: keys {keys}. "
                                      f"{rank_label(event.rank)} names no suit"), ()
        return flow.enter(replace(state, screen=WheelScreen()), StarterSuit(suit))
    waiting = waiting_for_phones(state)
    if waiting:  # no starter before every phone's hand is in
        if isinstance(event, KnobTurn):
            return state, ()
        if key_of(event) is Key.OK:  # "On the box instead?": a phone's seat taken here
            return replace(state, screen=FallBack(waiting, screen)), ()
        return flow.refuse(state, waiting_words(_gs(state), waiting, state.phones)), ()
    found = _wheel(state, screen)
    if found is None:
        return state, ()
    _, slots, start = found
    if isinstance(event, RankKey) and not any(slot[0].rank is event.rank for slot in slots):
        # A rank the wheel has no place for: said why, and nothing entered.
        return flow.refuse(state, wheels.no_place(_gs(state), event.rank, screen.pending,
                                                  open_hands=open_hands(state))), ()
    if not slots and isinstance(event, Press) and event.button is Button.OK:
        return flow.refuse(state, wheels.no_card_words(_gs(state),
                                                       open_hands=open_hands(state))), ()
    wheel, chosen = wheels.pick(screen.wheel, event, slots, start)
    if chosen is None:
        return replace(state, screen=replace(screen, wheel=wheel)), ()
    screen = replace(screen, wheel=wheel)
    if chosen.swaps:
        state, swapped = resuit.swap_plays(replace(state, screen=screen), dict(chosen.swaps))
        screen = replace(screen, pending=tuple(dict(chosen.swaps).get(c, c)
                                               for c in screen.pending))
        new, effects = _card(replace(state, screen=screen), screen, chosen.card)
        effects = swapped + effects
    else:
        new, effects = _card(replace(state, screen=screen), screen, chosen.card,
                             named=not chosen.plain)
    refused = isinstance(new.screen, Reading) and new.screen.pages[0].kind is PageKind.REFUSED
    if refused:
        return new, effects
    if chosen.facts and isinstance(event, RankKey) and event.long:
        # entered at once by a held key: its suit facts are shown and said with it
        effects = (*effects, FactsEntered(chosen.label, chosen.facts))
        return replace(new, entered=entered_words(chosen.label, chosen.facts)), effects
    # Another card chosen (a hand's or crib's next card too): the note has had its turn.
    return replace(new, entered=""), effects


def go(state: AppState, screen: WheelScreen, event: InputEvent) -> Result:
    """GO: in the play, the player to act says go; elsewhere, and on a lead (at 0 every card
    fits, so nobody can say go), the wheel jumps ahead a group."""
    gs = _gs(state)
    if says_go(gs):
        assert gs.to_act is not None
        fits = wheels.held_go(gs, gs.to_act)
        if fits is not None and not open_hands(state):
            return flow.refuse(state, fits), ()  # worded without listing a private hand
        return flow.enter(state, Go(gs.to_act))
    if gs.asked is not None:
        return _across(state, screen)
    return wheel_key(state, screen, event)


def _across(state: AppState, screen: WheelScreen) -> Result:
    """GO (or a held GO) on the starter's suit: two places on, the suit across the wheel, so
    that no suit is more than two actions away."""
    found = _wheel(state, screen)
    if found is None:
        return state, ()
    _, slots, start = found
    here = screen.wheel.cursor if screen.wheel.cursor is not None else start
    return replace(state, screen=replace(
        screen, wheel=Wheel((here + 2) % max(1, len(slots))))), ()


def says_go(gs: GameState) -> bool:
    """GO says go: in the play, but for a lead (a go at 0 is refused: a card must be led)."""
    return gs.phase is Phase.PLAY and gs.to_act is not None and gs.count > 0


def hold_go(state: AppState, screen: WheelScreen, event: InputEvent) -> Result:
    """Held GO: the wheel jumps back to the group of ranks before (10-K, 6-9, A-5, round),
    the other way from GO's jump where GO jumps (in the play GO says go)."""
    if _gs(state).asked is not None:
        return _across(state, screen)
    found = _wheel(state, screen)
    if found is None:
        return state, ()
    _, slots, start = found
    if not slots:  # no card to jump to: the wheel's words again, as a notice
        return flow.refuse(state, wheels.no_card_words(_gs(state),
                                                       open_hands=open_hands(state))), ()
    return replace(state, screen=replace(
        screen, wheel=wheels.jump(screen.wheel, slots, start, back=True))), ()


def back(state: AppState, screen: WheelScreen, event: InputEvent) -> Result:
    """UNDO: the last card of a hand or crib being entered, else the last entry."""
    if screen.pending:
        return replace(state, screen=WheelScreen(pending=screen.pending[:-1],
                                           anchor=screen.anchor)), ()
    return flow.undo(state)


def _card(state: AppState, screen: WheelScreen, card: Card, *, named: bool = False) -> Result:
    gs = _gs(state)
    if gs.asked is not None:
        return flow.enter(replace(state, screen=WheelScreen()), StarterSuit(card.suit))
    if gs.phase is Phase.STARTER:
        # The rank alone is entered with a stand-in suit, which scores nothing.
        return flow.enter(replace(state, screen=WheelScreen(anchor=card.rank)),
                          Starter(card, suit_known=named, by_rank=named))
    if gs.phase is Phase.PLAY:
        assert gs.to_act is not None
        lacking = wheels.held_elsewhere(gs, card)
        if lacking is not None:
            return flow.refuse(state, lacking), ()
        return flow.enter(state, Play(gs.to_act, card))
    if gs.phase is Phase.SHOW:
        assert gs.to_act is not None
        group = (*(screen.pending or gs.played[gs.to_act]), card)
        if len(group) < gs.rules.hand_size():
            return replace(state, screen=WheelScreen(pending=group, anchor=card.rank)), ()
        return flow.enter(state, Show(gs.to_act, group))
    if gs.phase is Phase.CRIB:
        pending = (*screen.pending, card)
        laid = wheels.crib_laid_away(gs)  # known already: never asked of the box
        if len(laid) + len(pending) < 4:
            return replace(state, screen=WheelScreen(pending=pending, anchor=card.rank)), ()
        return flow.enter(state, Crib((*laid, *pending)))
    return state, ()


def view(state: AppState, screen: WheelScreen) -> View:
    gs = _gs(state)
    found = _wheel(state, screen)
    prompt, slots, start = found if found is not None else ("", [], 0)
    empty = wheels.NO_CARD_FITS if says_go(gs) else ()
    pv = wheels.picker_view(prompt, slots, screen.wheel, start, empty)
    if gs.asked is not None:
        return _suit_view(state, gs, gs.asked, pv)
    if gs.phase is Phase.STARTER:
        dealer = gs.names[gs.dealer] if gs.dealer is not None else ""
        # The crib's claim, still open to a call, heads the next deal's first screen (the
        # header marks the dealer).
        title = calls.open_count_claim(state) or f"Deal {gs.deal_no}: {dealer} deals"
        waiting = waiting_for_phones(state)
        if waiting:
            # The rows leave the last column to the scroll mark, and four rows to the words
            # above the hint: the starter's mention gives way when the names need them.
            words = wrap(waiting_words(gs, waiting, state.phones, short=True), LINE_WIDTH - 1)
            if len(words) > WAIT_ROWS:
                words = wrap(waiting_words(gs, waiting, state.phones, short=True,
                                           starter=False), LINE_WIDTH - 1)
            if state.audio:  # the voice reads the lines, not the hint
                return replace(board(gs, Screen.MESSAGE, title), award=state.award,
                               lines=(*words, f"{FALL_BACK_HINT}."), hint="")
            return replace(board(gs, Screen.MESSAGE, title), award=state.award,
                           lines=words, hint=FALL_BACK_HINT)
        return replace(board(gs, Screen.STARTER, title),
                       picker=pv, award=state.award, hint="OK starter  GO jump")
    if gs.phase is Phase.PLAY:
        return replace(
            board(gs, Screen.PLAY, f"Deal {gs.deal_no}"), count=gs.count,
            pile=tuple(rank_label(c.rank) for c in gs.pile), award=state.award,
            turn=gs.names[gs.to_act] if gs.to_act is not None else "", picker=pv,
            hint=("GO go" if not slots else "OK play  GO go") if says_go(gs)
            else "OK lead  GO jump",
            coach=turn_coach(state),
        )
    shown = screen.pending
    if gs.phase is Phase.SHOW:
        shown = screen.pending or (gs.played[gs.to_act] if gs.to_act is not None else ())
        title, kind = "Show the hand", Screen.HAND
    elif gs.phase is Phase.CRIB:
        # The dealer's hand claim, while it can still be called, heads the crib's screen
        # (the wheel's prompt says whose crib card it is).
        title, kind = calls.open_count_claim(state) or "The crib", Screen.CRIB
    else:
        title, kind = "Pegboard", Screen.MESSAGE
    return replace(board(gs, kind, title), picker=pv if found else None,
                   lines=(" ".join(rank_label(c.rank) for c in shown),),
                   hint="OK card  UNDO back")


def _suit_view(state: AppState, gs: GameState, asked: SuitQuestion, pv: PickerView) -> View:
    """The starter's suit, asked before the count that needs it: whose count (the title),
    and on the wheel's line, whole on the screen, what the suit decides ("A: suit for
    nobs?"); on the keypad which key is which suit too, where the line has room."""
    what = "crib" if asked.crib else "hand"
    title, first = heading(gs.names[asked.player], what)
    suits = wheels.offered_suits(gs, state.phones)
    pv = replace(pv, prompt=suit_prompt(asked),
                 spoken=suit_question(asked, keypad=state.keypad, suits=suits))
    if state.keypad:
        # A key answers at once: the keys, each with its suit, in place of the wheel.
        number = {suit: str(n) for n, suit in enumerate(wheels.KEYPAD_SUITS.values(), start=1)}
        pv = replace(pv, keys=tuple(number[suit] for suit in suits))
    return replace(board(gs, Screen.HAND if not asked.crib else Screen.CRIB, title),
                   picker=pv, award=state.award, lines=first,
                   hint="" if state.keypad else "OK suit  GO across")


def suit_question(asked: SuitQuestion, *, keypad: bool,
                  suits: tuple[Suit, ...] | None = None) -> str:
    """The suit question whole, for the voice, which has no line to fit: the starter, what
    its suit decides and, on the keypad, which key is which suit ("Starter A: suit for nobs?
    1 clubs, 2 diamonds, 3 hearts, 4 spades"; the screen's "1♣" would be heard as a card)."""
    makes = [{"flush": "a flush"}.get(kind, kind) for kind in asked.makes]
    why = f" for {' or '.join(makes)}" if makes else ""
    question = f"Starter {rank_label(asked.rank)}: suit{why}?"
    if not keypad:
        return question
    number = {suit: n for n, suit in enumerate(wheels.KEYPAD_SUITS.values(), start=1)}
    keys = ", ".join(f"{number[suit]} {suit.name.lower()}"
                     for suit in (asked.suits if suits is None else suits))
    return f"{question} {keys}"


def suit_prompt(asked: SuitQuestion) -> str:
    """The suit question in one line of the screen (:data:`LINE_WIDTH` characters), asked as
    a question: the starter's rank and what its suit decides, the longest wording that fits
    ("Starter A: suit for nobs?", "A: suit for a flush?", "Suit for nobs, flush?"). On the
    keypad the keys, each with its suit, take the wheel's line under it (``PickerView.keys``:
    "press 1♣ 2♦ 3♥ 4♠")."""
    rank = rank_label(asked.rank)
    makes = [{"flush": "a flush"}.get(kind, kind) for kind in asked.makes]
    why = " or ".join(makes)
    if makes:
        tried = [f"Starter {rank}: suit for {why}?", f"{rank}: suit for {why}?",
                 f"Suit for {', '.join(asked.makes)}?", f"{rank}: suit?"]
    else:
        tried = [f"Starter {rank}: suit?", f"{rank}: suit?"]
    return next((line for line in tried if len(line) <= LINE_WIDTH), tried[-1])
