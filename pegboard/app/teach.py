"""Teaching mode: the lessons an entry brings up.

The first-game coach's page at each step of a deal the first time it happens
(:mod:`pegboard.app.coach`); a shown hand's discard reviewed by expected value (when the dealt
cards were entered); what a low claim missed; why a card scored nothing when it nearly did
(once per kind of near miss a game, so the lesson does not become a chore); rule help the
first time a dispute is likely; and the pegging coach's line for the player to act, whole on a
page when the play screen's line cannot hold it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.app.coach import COACH, COUNT_TITLE, coach_pages
from pegboard.app.open_hands import open_hands, open_hands_page
from pegboard.app.state import AppState, Page, Reading
from pegboard.app.view import PageKind, Screen
from pegboard.app.words import no_suits, wrap
from pegboard.coach.help_shape import in_lines, paginate
from pegboard.errors import PegboardError
from pegboard.rules.cards import Card
from pegboard.rules.events import Claim, Deal, Event, Play
from pegboard.rules.scoring import Breakdown
from pegboard.rules.state import Award, GameState, Phase, Reason
from pegboard.rules.value import replace

if TYPE_CHECKING:
    from pegboard.coach import hints, knowledge, lookahead, review, rulehelp, teaching
    from pegboard.coach.rulehelp import Topic
else:
    hints = lazy.module("pegboard.coach.hints")
    knowledge = lazy.module("pegboard.coach.knowledge")
    lookahead = lazy.module("pegboard.coach.lookahead")
    review = lazy.module("pegboard.coach.review")
    rulehelp = lazy.module("pegboard.coach.rulehelp")
    teaching = lazy.module("pegboard.coach.teaching")


BASICS = ("how-to-play", "counting")
"""The basics offered before a teaching game's first entry (:mod:`pegboard.coach.help_basics`):
how to play, and counting a hand."""


BASICS_OFFER = Page("The basics", ("OK: read the basics", "UNDO: skip them", "(how to play, and",
                                   "counting a hand)"), screen=Screen.HELP)
"""The page that offers the basics: OK reads them, UNDO goes straight to the game."""


def offer_basics(state: AppState) -> AppState:
    """Before the first entry of a teaching game (started so, or teaching turned on before
    the first card is entered): the basics pages, offered (UNDO skips them to the screen the
    game is on)."""
    topics = tuple(rulehelp.topic(name) for name in BASICS)
    pages = (BASICS_OFFER, *help_pages(topics))
    return replace(state, screen=Reading(pages, then=state.screen),
                   helped=state.helped | set(BASICS))


def before_the_first_card(gs: GameState) -> bool:
    """No card of the game is entered yet: the first deal of its first game at most, before
    its starter and any dealt card (where the basics are still offered when teaching is
    turned on)."""
    return (gs.game_no == 1 and gs.deal_no <= 1
            and gs.phase in (Phase.CUT, Phase.DEAL, Phase.STARTER)
            and all(cards is None for cards in gs.dealt))


def lessons(state: AppState, before: GameState, event: Event, awards: tuple[Award, ...],
            ) -> tuple[list[Page], frozenset[str]]:
    """The teaching pages for an entry, and the lessons they give (not to be repeated)."""
    if not state.teaching or state.session is None:
        return [], frozenset()
    coached, no_score, topics, given = _taught(state, before, event, awards)
    after = state.session.state
    pages = [*coached, *_play_note(state, before, event),
             *_discard_reviews(after, tuple(a for a in awards if not _private(state, a.player))),
             *_missed(before, event), *no_score, *help_pages(topics), *_turn_page(state)]
    return pages, given


def given_by(state: AppState, before: GameState, event: Event, awards: tuple[Award, ...],
             ) -> frozenset[str]:
    """The once-a-game lessons an entry gives, as :func:`lessons` gives them, without making
    the pages that are not once a game (a discard's review, the coach's notes): what a
    game's record says was taught, read again after a restart."""
    if not state.teaching or state.session is None:
        return frozenset()
    return _taught(state, before, event, awards)[3]


def _taught(state: AppState, before: GameState, event: Event, awards: tuple[Award, ...],
            ) -> tuple[list[Page], list[Page], tuple[Topic, ...], frozenset[str]]:
    """An entry's once-a-game lessons not yet given (``state.helped``): the first-game
    coach's pages, a near miss's page, the rule help topics, and the lessons they give."""
    assert state.session is not None
    after = state.session.state
    coached, steps = coach_pages(before, after, event, awards, state.helped,
                                 lambda: _answered_worse(state, before))
    if isinstance(event, Deal) and "open hands" not in state.helped and open_hands(state):
        coached = [*coached, *open_hands_page(after)]
        steps = steps | {"open hands"}
    given: set[str] = set(steps)
    no_score: list[Page] = []
    if isinstance(event, Play) and not any(a.player == event.player for a in awards):
        why = hints.explain_no_score((*before.pile, event.card))
        kind = f"why {why.split(':')[0]}" if why else ""
        if why is not None and kind not in state.helped:
            # Titled as a player says it ("16, no score"); the voice says the same words.
            no_score.append(Page(hints.no_score_heading(after.count), (no_suits(why),),
                                 kind=PageKind.NO_SCORE))
            given.add(kind)
    situation = rulehelp.situation_after(event, awards, before, after)
    topics = tuple(t for t in rulehelp.topics_for(situation) if t.id not in state.helped)
    return coached, no_score, topics, frozenset(given | {t.id for t in topics})


COACH_COLUMNS = 21
"""The play screen's coach line: the columns of its bottom line (128 pixels of 6)."""


def turn_coach(state: AppState) -> str:
    """The pegging coach's line for the player to act (teaching, something of their cards
    known): in an open-handed game with their hand known, the card to lay looking two cards
    ahead; else what the count offers, naming none of their cards (a dealt card may be in
    the crib, and a closed hand is not the table's to see) (:func:`pegboard.coach.lookahead.
    coach_line`); worked out once an entry."""
    session = state.session
    if not state.teaching or session is None or session.state.phase is not Phase.PLAY:
        return ""
    if _private(state, session.state.to_act):
        return ""  # a phone's seat is coached on its phone alone

    def line() -> str:
        known = knowledge.knowledge_for(session.state)
        if known is None:
            return ""
        return lookahead.coach_line(known, open_hand=open_hands(state)) or ""

    return session.memo("coach line", line)


def turn_card(state: AppState) -> Card | None:
    """The card the pegging coach's line names for the player to act (:func:`turn_coach`: an
    open-handed teaching game, that player's hand known and not a phone's): where the play's
    card wheel starts, so that the card the coach advises is one OK away. None: the line
    names no card."""
    session = state.session
    if (not state.teaching or session is None or session.state.phase is not Phase.PLAY
            or not open_hands(state) or _private(state, session.state.to_act)):
        return None

    def card() -> Card | None:
        known = knowledge.knowledge_for(session.state)
        return None if known is None else lookahead.coach_card(known, open_hand=True)

    return session.memo("coach card", card)


def _private(state: AppState, seat: int | None) -> bool:
    """The seat's hand is its phone's, and the table's hands are not open: the pegging
    coach's line and note, and the review of its discard, are that phone's alone, never the
    box's (an open-handed game's coach is the whole table's)."""
    return seat is not None and seat in state.phones and not open_hands(state)


def _turn_page(state: AppState) -> list[Page]:
    """The pegging coach's line whole, wrapped on a page before the turn, when the play
    screen's one line cannot hold it (the screen then shows the card to lay); in audio mode
    the play screen's line is said whole instead (:mod:`pegboard.voice.audio`)."""
    line = turn_coach(state)
    if len(line) <= COACH_COLUMNS or state.audio:
        return []
    assert state.session is not None
    gs = state.session.state
    # An open hand's line is the player's card; a closed one's is what the count offers,
    # which names nobody's card (titled as the pegging hint titles it).
    title = (f"{COACH}{gs.names[gs.to_act] if gs.to_act is not None else ''}'s card"
             if open_hands(state) else COUNT_TITLE)
    # A page's rows keep their last column for the scroll marks.
    body = paginate([line], width=COACH_COLUMNS - 1)
    return [Page(title if len(body) == 1 else f"{title} {n}/{len(body)}", lines,
                 kind=PageKind.COACH) for n, lines in enumerate(body, start=1)]


PLAY_NOTE = f"{COACH}that card"
"""The title of the pegging coach's note after a card that gave points away or missed one."""


def _play_note(state: AppState, before: GameState, event: Event) -> list[Page]:
    """The pegging coach's one-line note on the card just laid by a player whose hand the box
    knew: what it gave away or missed, by the judgement the coach's line makes; in a closed
    game it names none of the cards the player still holds."""
    if not isinstance(event, Play) or before.to_act != event.player:
        return []
    if _private(state, event.player):
        return []  # a phone's seat is coached on its phone alone
    known = knowledge.knowledge_for(before)
    note = (lookahead.play_note(known, event.card, open_hand=open_hands(state))
            if known is not None else None)
    return [Page(PLAY_NOTE, wrap(no_suits(note)), kind=PageKind.COACH)] if note is not None \
        else []


def _answered_worse(state: AppState, before: GameState) -> bool:
    """Whether the last card of ``before``'s count gave up points against another card its
    player then held, judged with what the box knew as it was laid (the judgement the
    coach's line and the review make); False when the box did not know that player's hand."""
    if state.session is None or not before.pile:
        return False
    card = before.pile[-1]
    game = state.session.game.copy()
    for _ in range(2 * len(before.names) + 2):  # back over the answer and any go said
        if not game.events:
            return False
        event = game.pop()
        if isinstance(event, Play) and event.card == card:
            known = knowledge.knowledge_for(game.state)
            if known is None or known.own is not knowledge.OwnCards.KEPT:
                return False
            lost = lookahead.given_up(known, card)
            return lost is not None and lost > 0
    return False


def _discard_reviews(after: GameState, awards: tuple[Award, ...]) -> list[Page]:
    """Each shown hand whose dealt cards were entered: its discard reviewed by expected value."""
    pages: list[Page] = []
    for award in awards:
        dealt = after.dealt[award.player]
        if award.reason != Reason.HAND or dealt is None or after.dealer is None:
            continue
        own_crib = after.side_of(award.player) == after.side_of(after.dealer)
        try:
            found = review.review_discard(dealt, award.cards, dealer=own_crib,
                                          starter=after.turned or after.starter,
                                          players=after.players,
                                          five_card=after.rules.five_card)
        except PegboardError:
            continue
        pages.extend(Page(title, lines) for title, lines in review.screen_pages(found))
    return pages


def _missed(before: GameState, event: Event) -> list[Page]:
    """What a claim below the true score left out, combination by combination."""
    if not isinstance(event, Claim) or not before.pending_claims:
        return []
    pending = before.pending_claims[0]
    if event.points >= pending.points:
        return []
    title = f"Missed {pending.points - event.points}"
    if not pending.items:
        return [Page(title, (f"{pending.reason}: {pending.points}", f"claimed {event.points}"))]
    report = teaching.missed_combinations(Breakdown(pending.items), event.points)
    lines = tuple(no_suits(line) for line in report.lines()) or (
        f"{pending.reason}: {pending.points}", f"claimed {event.points}")
    return [Page(title, lines)]


def help_pages(topics: tuple[Topic, ...]) -> list[Page]:
    """Rule help shown on its own when a dispute is likely."""
    pages = []
    for topic in topics:
        body = topic.pages
        for number, lines in enumerate(body, start=1):
            title = topic.title if len(body) == 1 else f"{topic.title} {number}/{len(body)}"
            extra = in_lines(topic.reference) if number == len(body) else ()
            pages.append(Page(title, (*lines, *extra), screen=Screen.HELP))
    return pages
