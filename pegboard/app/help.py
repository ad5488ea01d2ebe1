"""Rule help, and the cards entered for discard advice, the cards laid away or a renege.

Rule help: a list of topics; a topic's pages turn with OK, GO or the knob, UNDO goes back.
Advice asks for the cards dealt to a player (recorded as that player's dealt cards so the
engine can check every later card against them); a renege claim for the cards its player still
holds. In a
teaching game the cards laid away are asked next, from those cards
(:mod:`pegboard.app.open_hands`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.app import flow, open_hands, picker, wheels
from pegboard.app.inputs import InputEvent, RankKey
from pegboard.app.keys import list_move, steps
from pegboard.app.state import AppState, CardEntry, HelpScreen, Page, Reading, Result, Wheel
from pegboard.app.view import Screen, View
from pegboard.app.views import board, numbered
from pegboard.coach.help_shape import in_lines
from pegboard.rules.cards import Card, Rank
from pegboard.rules.events import Dealt, LaidAway, Penalty
from pegboard.rules.state import GameState
from pegboard.rules.value import replace

if TYPE_CHECKING:
    from pegboard.coach import advice, rulehelp
else:
    advice = lazy.module("pegboard.coach.advice")
    rulehelp = lazy.module("pegboard.coach.rulehelp")

# -- rule help ---------------------------------------------------------------------------------


def help_forward(state: AppState, screen: HelpScreen, event: InputEvent) -> Result:
    """Topic list: choose. A topic: OK or GO the next page (after the last, back to the
    list); turning moves between its pages."""
    if screen.topic is None:
        index, row = list_move(screen.index, event, len(rulehelp.TOPICS))
        return replace(state, screen=replace(screen, index=index, topic=row, page=0)), ()
    pages = rulehelp.TOPICS[screen.topic].pages
    if steps(event):  # turning moves between the pages and never leaves the topic
        page = max(0, min(len(pages) - 1, screen.page + steps(event)))
        return replace(state, screen=replace(screen, page=page)), ()
    if screen.page + 1 >= len(pages):
        return replace(state, screen=replace(screen, topic=None, page=0)), ()
    return replace(state, screen=replace(screen, page=screen.page + 1)), ()


def help_back(state: AppState, screen: HelpScreen, event: InputEvent) -> Result:
    if screen.topic is not None:
        return replace(state, screen=replace(screen, topic=None, page=0)), ()
    return replace(state, screen=screen.under), ()


def help_view(state: AppState, screen: HelpScreen) -> View:
    if screen.topic is None:
        rows = [t.title for t in rulehelp.TOPICS]
        return View(Screen.MENU, "Rule help", numbered(state.keypad, rows),
                    screen.index % len(rows), hint="OK read  UNDO back")
    topic = rulehelp.TOPICS[screen.topic]
    lines = topic.pages[screen.page]
    if screen.page == len(topic.pages) - 1:
        lines = (*lines, *in_lines(topic.reference))
    return View(Screen.HELP, f"{topic.title} {screen.page + 1}/{len(topic.pages)}", lines,
                hint="OK next  UNDO back")


# -- cards for advice, the cards laid away, a renege -----------------------------------------------


def _gs(state: AppState) -> GameState:
    assert state.session is not None
    return state.session.state


def _size(gs: GameState, screen: CardEntry) -> int:
    assert screen.player is not None
    if screen.purpose == "renege":
        return gs.cards_left[screen.player]
    if screen.purpose == open_hands.AWAY:
        return open_hands.away_count(gs)
    return gs.rules.dealt_size(gs.players)


def _advised(state: AppState, player: int) -> tuple[advice.DiscardChoice, ...]:
    """The discard advice for the player's dealt cards (worked out once a deal)."""
    assert state.session is not None
    gs = state.session.state
    return state.session.memo(("advice", gs.game_no, gs.deal_no, player, gs.dealt[player]),
                              lambda: open_hands.advised(gs, player))


def _slots(state: AppState, screen: CardEntry) -> tuple[list[picker.Slot], int]:
    """Ranks (then, for advice, the suits) of cards not yet seen; for the cards laid away,
    the player's dealt cards, from the advised discard."""
    gs = _gs(state)
    if screen.purpose == open_hands.AWAY:
        assert screen.player is not None
        best = _advised(state, screen.player)
        return open_hands.away_slots(gs, screen, best[0].discard if best else ())
    blocked = set(gs.seen) | set(screen.cards)
    if gs.starter is not None:
        blocked.add(gs.starter)
    for q, dealt in enumerate(gs.dealt):
        if dealt is not None and q != screen.player:
            blocked |= set(dealt)
    if screen.rank is not None:
        cards = [Card(screen.rank, suit) for suit in picker.SUITS]
        return [[picker.WheelChoice(c.pretty, c)] for c in cards if c not in blocked], 0
    anchor = screen.cards[-1].rank if screen.cards else None
    return wheels.plain_wheel(blocked, anchor)


def entry_key(state: AppState, screen: CardEntry, event: InputEvent) -> Result:
    """Whose cards (advice), then each card: a rank, and for advice its suit."""
    gs = _gs(state)
    if screen.player is None:
        index, row = list_move(screen.index, event, gs.players)
        return replace(state, screen=replace(screen, index=index, player=row)), ()
    slots, start = _slots(state, screen)
    if isinstance(event, RankKey) and not any(slot[0].rank is event.rank for slot in slots):
        # A rank with no place on the wheel: said why, and nothing chosen.
        return flow.refuse(state, _no_place(gs, screen, event.rank)), ()
    wheel, chosen = wheels.pick(screen.wheel, event, slots, start)
    if chosen is None:
        return replace(state, screen=replace(screen, wheel=wheel)), ()
    if screen.purpose in (open_hands.ADVICE, "renege") and screen.rank is None:
        return replace(state, screen=replace(screen, rank=chosen.rank, wheel=Wheel())), ()
    screen = replace(screen, cards=(*screen.cards, chosen.card), rank=None, wheel=Wheel())
    if len(screen.cards) >= _size(gs, screen):
        return _done(state, screen)
    return replace(state, screen=screen), ()


def _no_place(gs: GameState, screen: CardEntry, rank: Rank) -> str:
    """Why a rank key chooses nothing on a card entry's wheel: a suit is being chosen for
    another rank; the cards laid away come from the dealt cards, which hold none (or none
    left); every card of the rank is in already, or the rest are in other hands."""
    label = picker.rank_label(rank)
    assert screen.player is not None
    name = gs.names[screen.player]
    if screen.rank is not None:
        return (f"The suit of the {picker.rank_label(screen.rank)} is asked: turn to it and "
                "press OK, or UNDO for another rank")
    if screen.purpose == open_hands.AWAY:
        chosen = any(card.rank is rank for card in screen.cards)
        return f"{name} {'has no other' if chosen else 'was dealt no'} {label} to lay away"
    entered = set(gs.seen) | set(screen.cards) | ({gs.starter} if gs.starter else set())
    if all(Card(rank, suit) in entered for suit in picker.SUITS):
        return f"all four {wheels.rank_words(rank)} are already in"
    return f"no {label} is left: the others are in the players' hands"


def entry_back(state: AppState, screen: CardEntry, event: InputEvent) -> Result:
    """UNDO steps back: the suit, the last card, then out; out of cards the table asks for
    (the cards laid away, an open-handed deal's), the entry before is taken back."""
    if screen.rank is not None:
        return replace(state, screen=replace(screen, rank=None, wheel=Wheel())), ()
    if screen.cards:
        return replace(state, screen=replace(screen, cards=screen.cards[:-1], wheel=Wheel())), ()
    if open_hands.next_entry(state) == replace(screen, wheel=Wheel(), index=0):
        return flow.undo(state)
    return replace(state, screen=screen.under), ()


def _done(state: AppState, screen: CardEntry) -> Result:
    """The dealt cards recorded and the discard advice; the cards laid away recorded; or a
    renege claimed."""
    assert screen.player is not None
    back = replace(state, screen=screen.under)
    if screen.purpose == open_hands.AWAY:
        return flow.enter(back, LaidAway(screen.player, screen.cards))
    if screen.purpose == "renege":  # the engine judges the renege from the cards held
        return flow.enter(back, Penalty(screen.player, "renege", held=screen.cards))
    new, effects = flow.enter(back, Dealt(screen.player, screen.cards))
    if new.session is None or new.session.state.dealt[screen.player] != screen.cards:
        return new, effects  # refused: the notice says why
    options = _advised(new, screen.player)
    if new.teaching:
        # The cards laid away are asked next: the advice and its reasons come first.
        advised = open_hands.advice_pages(new.session.state, screen.player, options,
                                          shown=open_hands.open_hands(new))
    else:
        advised = (_advice_page(new.session.state, screen.player, options),)
    if isinstance(new.screen, Reading):
        pages = (*advised, *new.screen.pages)
        return replace(new, screen=replace(new.screen, pages=pages)), effects
    return replace(new, screen=Reading(advised, then=new.screen)), effects


def _advice_page(gs: GameState, player: int, options: tuple[advice.DiscardChoice, ...]) -> Page:
    """The three best discards, each with the hand's and the crib's expected points (the
    crib counts for the dealer's side and against the others: the pone's is a cost)."""
    sign = "+" if open_hands.own_crib(gs, player) else "-"
    lines = []
    for option in options[:3]:
        throw = " ".join(c.pretty for c in option.discard)
        lines.append(f"lay {throw}: {float(option.net):+.1f}")
        lines.append(f" hand {float(option.hand):.1f} crib {sign}{float(option.crib):.1f}")
    return Page(f"Advice for {gs.names[player]}", tuple(lines))


def entry_view(state: AppState, screen: CardEntry) -> View:
    gs = _gs(state)
    if screen.player is None:
        return View(Screen.DEALER, "Whose cards?", numbered(state.keypad, list(gs.names)),
                    screen.index % gs.players, hint="OK choose  UNDO back")
    slots, start = _slots(state, screen)
    who = gs.names[screen.player]
    if screen.purpose == open_hands.AWAY:
        title, hint = f"{who} lays away", "OK lay away  UNDO back"
        shown = tuple(c.pretty for c in screen.cards)
        prompt = f"to the crib {len(screen.cards) + 1}/{_size(gs, screen)}"
        return replace(board(gs, Screen.HAND, title), lines=(" ".join(shown),), hint=hint,
                       picker=wheels.picker_view(prompt, slots, screen.wheel, start))
    else:
        title = f"{who} still holds" if screen.purpose == "renege" else f"Dealt to {who}"
        hint = "OK add  UNDO back"
        shown = tuple(c.pretty for c in screen.cards)
    prompt = f"card {len(screen.cards) + 1}/{_size(gs, screen)}"
    if screen.rank is not None:
        prompt = f"{picker.rank_label(screen.rank)} of which suit?"
        if state.keypad:  # no knob to turn: the line says how the suit is chosen
            prompt = f"Suit (hold {picker.rank_label(screen.rank)}: next)"
    return replace(board(gs, Screen.HAND, title), lines=(" ".join(shown),), hint=hint,
                   picker=wheels.picker_view(prompt, slots, screen.wheel, start))
