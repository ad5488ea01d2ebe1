"""Entries into the game and what the table does next.

The rules of the device, kept here in one place:

* **No entry is ever dropped.** Every accepted entry becomes a ``Persist`` effect, and every
  award the engine makes reaches the screen: pegging awards on the play screen's award line,
  every hand and crib count on a page of its own (a hand of nothing too), every penalty the
  engine finds as an offer to the table. In a muggins game every score waits for its owner's
  claim; an opponent calls muggins from the menu while the window is open, and with
  teaching on the table is asked after an under-claim (:mod:`pegboard.app.calls`).
* **The next deal starts only when the last count has been read**: the deal is entered when
  the player leaves the crib's page (in a muggins game, once the crib is claimed; after a
  cut, at once), never while a score waits.
* **Undo takes back the last entry a player made**, with the automatic deal that followed
  it or the claim said with it ("one for go"), and keeps table options changed since.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.app.effects import Effect, Persist, PersistUndo, SeatNotice
from pegboard.app.session import Session
from pegboard.app.state import (
    AppState,
    Calling,
    Claiming,
    Cutting,
    Dealer,
    GameOverScreen,
    Home,
    Page,
    QuickPeg,
    Reading,
    Result,
    ScreenState,
    WheelScreen,
)
from pegboard.app.view import PageKind
from pegboard.app.words import (
    awards_text,
    count_claimed,
    describe,
    offer_page,
    wrap,
)
from pegboard.errors import PegboardError
from pegboard.rules.cards import Card
from pegboard.rules.events import (
    Claim,
    Cut,
    Deal,
    Event,
    Go,
    LetPass,
    Muggins,
    OptionsChanged,
    Play,
    Starter,
    StarterSuit,
)
from pegboard.rules.facts import Report
from pegboard.rules.state import Award, GameState, PenaltyOffer, Phase, Reason
from pegboard.rules.value import replace

if TYPE_CHECKING:
    from pegboard.app import held_counts, open_hands, private, resuit
    from pegboard.app import pages as app_pages
    from pegboard.app import teach as teaching
else:
    held_counts = lazy.module("pegboard.app.held_counts")
    open_hands = lazy.module("pegboard.app.open_hands")
    app_pages = lazy.module("pegboard.app.pages")
    teaching = lazy.module("pegboard.app.teach")
    private = lazy.module("pegboard.app.private")
    resuit = lazy.module("pegboard.app.resuit")


def enter(state: AppState, event: Event, first: tuple[Page, ...] = (), *,
          teach: bool = True) -> Result:
    """Apply a player's entry; a refused entry shows the engine's reason and changes nothing
    (the player is back on the same screen after reading it). ``first`` are pages still to
    read from before (a count held back until the muggins question was answered): they come
    before the entry's own, and the next deal waits for them. ``teach`` False: no teaching
    page (a seat's own entry from its phone: the coach's pages about it are that seat's)."""
    session = state.session
    assert session is not None
    state = read_lessons(state)
    before = session.state
    try:
        moved, effects = resuit.make_way(session, event)
        session, report = moved.apply(event)
    except PegboardError as error:
        return refuse(state, str(error)), _told_privately(state, event)
    # What a held key entered at once is shown until the next entry (or take-back).
    state = replace(state, entered="")
    effects.append(Persist(event, session.report))
    state, pages = notices(replace(state, session=session), before, report, teach=teach)
    claim = said_with(session.state, event)
    if claim is not None:
        before = session.state
        session, report = session.apply(claim)
        effects.append(Persist(claim, session.report))
        state, more = notices(replace(state, session=session), before, report, teach=teach)
        pages = [*pages, *more]
    return go_on(state, [*first, *pages], effects)


def _told_privately(state: AppState, event: Event) -> tuple[Effect, ...]:
    """A starter (or the starter's suit) the box entered that a phone's hand holds: the box
    shows :data:`~pegboard.app.private.CLASH` only; the phone whose hand holds the card is
    told, on that phone alone, which card and what to do."""
    session = state.session
    if session is None or not state.phones:
        return ()
    gs = session.state
    if isinstance(event, Starter) and not event.suit_known:
        return ()  # a rank alone: its stand-in is no hand's card
    if isinstance(event, Starter):
        card, suit = event.card, False
    elif isinstance(event, StarterSuit) and gs.asked is not None:
        card, suit = Card(gs.asked.rank, event.suit), True
    else:
        return ()
    return tuple(SeatNotice(seat, private.holder_words(card, suit=suit))
                 for seat in private.holders(gs, state.phones, card))


ONE_FOR = ((Reason.GO,), (Reason.LAST_CARD,))
"""Scores a player says as they make them ("one for go", "one for last"): nothing to count."""


def said_with(gs: GameState, event: Event) -> Claim | None:
    """Muggins games: the claim said with ``event``, entered with it. A go's point or the last
    card's, alone, is claimed by the entry that wins it, the owner's GO that ends the count or
    the last card laid, as players say "one for go" as they say they cannot play; a score
    with anything in it to count waits for its own claim. None when the entry says none."""
    if not isinstance(event, Go | Play) or not gs.pending_claims:
        return None
    pending = gs.pending_claims[0]
    if pending.player != event.player or pending.points != 1 or pending.reasons not in ONE_FOR:
        return None
    return Claim(pending.player, 1)


NOT_ALLOWED = "Not allowed"
"""The title of the notice of a refused entry."""


def refuse(state: AppState, reason: str) -> AppState:
    """A notice saying why an entry is not allowed, then back to this very screen; worded
    for the shared screen (:func:`pegboard.app.private.public_reason`: no card a phone's
    hand holds unseen)."""
    if state.session is not None and state.phones:
        reason = private.public_reason(state.session.state, state.phones, reason)
    return replace(state, screen=Reading((Page(NOT_ALLOWED, wrap(reason),
                                              kind=PageKind.REFUSED),),
                                         then=state.screen))


def go_on(state: AppState, pages: list[Page], effects: list[Effect]) -> Result:
    """Show ``pages`` (if any), else go on to what the table needs next."""
    if pages:
        return replace(state, screen=held_counts.reading(state, tuple(pages))), tuple(effects)
    return settle(state, effects)


def settle(state: AppState, effects: list[Effect] | None = None) -> Result:
    """The screen the table needs next, entering the next deal when one is due."""
    done = list(effects or ())
    session = state.session
    if session is None:
        return replace(state, screen=Home()), tuple(done)
    gs = session.state
    if gs.phase is Phase.DEAL and not waiting(state):
        session, report = session.apply(Deal())
        awards = report.awards
        done.append(Persist(Deal(), session.report))
        state = replace(state, session=session, award=dealt_award(state.award, session,
                                                                  list(awards)))
    return replace(state, screen=table_screen(state)), tuple(done)


def dealt_award(award: str, session: Session, awards: list[Award]) -> str:
    """The award line once the next deal is entered (``session`` after it): a new deal starts
    with none, for the last deal's last award is not this deal's; five-card cribbage's
    pone's three for last, which comes with the deal, is said. Only a claim still open to a
    muggins call across the deal (the crib's) stays in view, where the other side judges it
    (ACC 10), until its window shuts."""
    if awards:
        return awards_text(awards, session.state.names)
    return award if session.state.open_call is not None else ""


def waiting(state: AppState) -> bool:
    """A score waits for its owner's claim, or for a muggins call, or a count for its
    owner's own count (count it yourself)."""
    assert state.session is not None
    gs = state.session.state
    return bool(gs.pending_claims or gs.held_counts) or muggins_open(state)


def muggins_open(state: AppState) -> bool:
    """Teaching only: points were just missed and the table has yet to say whether anyone
    calls muggins (the lesson names them). Without teaching nobody is asked: an opponent
    calls from the menu (:mod:`pegboard.app.calls`)."""
    assert state.session is not None
    gs = state.session.state
    if not state.teaching or gs.phase is Phase.GAME_OVER:
        return False
    # The table is asked once, right after the claim; "No muggins" is an entry that shuts
    # the window, so a game resumed from its record is not asked again.
    last = next((e for e in reversed(state.session.events)
                 if not isinstance(e, OptionsChanged)), None)
    if not isinstance(last, Claim):
        return False
    missed = gs.pending_muggins
    return missed is not None and missed.points > 0


def claim_start(gs: GameState) -> int:
    """Where the claim dial starts: at the least the kinds of score the screen names are
    worth (a go or last card 1, a fifteen, pair or 31 2, a pair royal 6, a run 3), so a
    claim is counted from what the owner is told, never from the true total; a hand or crib
    at :data:`SHOW_CLAIM_START` whatever its cards (the screen names nothing but "hand")."""
    pending = gs.pending_claims[0]
    if pending.reason in (Reason.HAND, Reason.CRIB):
        return SHOW_CLAIM_START
    reasons = pending.reasons or (pending.reason,)
    return sum(LEAST_WORTH.get(reason, 0) for reason in reasons)


SHOW_CLAIM_START = 4
"""Where a hand's or crib's claim dial starts: 4, the commonest count of a hand, the same for
every hand and crib, so it tells the owner nothing about their cards (a start at or near the
true count would count for them); most claims are then a few detents away."""


LEAST_WORTH = {
    Reason.GO: 1, Reason.LAST_CARD: 1, Reason.FIFTEEN: 2, Reason.PAIR: 2,
    Reason.THIRTY_ONE: 2, Reason.PAIR_ROYAL: 6, Reason.DOUBLE_PAIR_ROYAL: 12, Reason.RUN: 3,
}
"""What each kind of play score is worth at the least (a run may be longer)."""


def table_screen(state: AppState) -> ScreenState:
    """Which table screen the engine's phase asks for."""
    session = state.session
    assert session is not None
    gs = session.state
    if gs.held_counts:  # count it yourself: resumed, or an owner's count taken back
        return held_counts.held_screen(gs)
    if gs.phase is Phase.GAME_OVER:
        return GameOverScreen()
    if muggins_open(state):
        return Calling()
    if gs.pending_claims:
        return Claiming(claim_start(gs))
    if state.table.points_only:
        return QuickPeg()
    if gs.phase is Phase.CUT:
        return Cutting() if session.events and isinstance(session.events[-1], Cut) else Dealer()
    entry = open_hands.next_entry(state)  # teaching: the cards laid away, an open deal's
    return entry if entry is not None else WheelScreen()


def undo(state: AppState) -> Result:
    """Take back the last entry a player made (and any automatic deal that followed it);
    options changed since stay as they are."""
    session = state.session
    if session is None or not any(not isinstance(e, OptionsChanged) for e in session.events):
        return state, ()
    effects: list[Effect] = []
    kept: list[Event] = []
    while isinstance(session.events[-1], OptionsChanged):
        kept.insert(0, session.events[-1])
        effects.append(PersistUndo(session.report))
        session = session.undo()
    while True:
        last = session.events[-1]
        effects.append(PersistUndo(session.report))
        session = session.undo()
        automatic = isinstance(last, Deal) and last.dealer is None
        together = bool(session.events) and said_with(session.state, session.events[-1]) == last
        if not ((automatic or together) and session.events):
            break
    # A phone's entry taken back is no longer among the resumed game's entries.
    phone_made = frozenset(at for at in state.phone_made if at < len(session.events))
    for option in kept:
        session, _ = session.apply(option)
        effects.append(Persist(option, session.report))
    state = replace(
        state, session=session, award=f"Undone: {describe(last, session.state.names)}",
        offers_shown=min(state.offers_shown, len(session.state.offers)), entered="",
        phone_made=phone_made,
    )
    # An offer the undone entry answered (a penalty applied, an offer let pass) stands again:
    # it is put to the table as a game resumed at this point would put it.
    offers = tuple(offer_page(session.state, offer) for offer in standing_offers(session))
    if offers:
        return replace(state, screen=Reading(offers)), tuple(effects)
    return replace(state, screen=table_screen(state)), tuple(effects)


# -- what an entry shows -----------------------------------------------------------------------


def notices(state: AppState, before: GameState, report: Report, *,
            teach: bool = True) -> tuple[AppState, list[Page]]:
    """What an accepted entry brings up, in the order it happened (:mod:`pegboard.app.pages`:
    the end of the play, the counts, a take-back), penalties the engine found, then
    (teaching, unless ``teach`` is False) the lessons; and the play screen's award line."""
    assert state.session is not None
    after, event = state.session.state, report.event
    # A claim's pages kept back while muggins could be called on it come first, their
    # lessons given before this entry's own.
    released, given = held_back(state, before, report, teach=teach)
    state = replace(state, helped=state.helped | given)
    pegged = [award for act in app_pages.said(report) for award in act.awards]
    spoken = awards_text(pegged, after.names) if pegged else ""
    taught, helped = (teaching.lessons(state, before, event, report.awards) if teach
                      else ([], frozenset[str]()))
    # The show order is said before the counts it explains; the other lessons follow them.
    opening = [page for page in taught if page.kind is PageKind.SHOW_ORDER]
    taught = [page for page in taught if page.kind is not PageKind.SHOW_ORDER]
    pages = app_pages.entry_pages(before, after, report, spoken, opening)
    for offer in after.offers[state.offers_shown:]:
        if not offer.resolved:
            pages.append(offer_page(after, offer))
    # A hand's or crib's claim stays in view: the other side judges it from there.
    claimed = count_claimed(report, after.names) if isinstance(event, Claim) else None
    if spoken:
        award = spoken
    elif claimed:
        award = claimed
    elif isinstance(event, Play | Go) or _claim_left(before, after):
        award = ""
    else:
        award = state.award
    state = replace(state, award=award, offers_shown=len(after.offers))
    state, shown = withhold(state, report, pages, taught, helped)
    return state, [*released, *shown]


def _claim_left(before: GameState, after: GameState) -> bool:
    """The last deal's crib claim, kept on the award line into the next deal while an
    opponent may call muggins on it (:func:`dealt_award`), leaves the line as its window
    shuts."""
    call = before.open_call
    return (call is not None and call.claim.reason is Reason.CRIB
            and before.phase in (Phase.STARTER, Phase.PLAY) and after.open_call != call)


COUNTED = (Reason.HAND, Reason.CRIB)
"""The claims whose page tells a count (its breakdown, with what was said)."""
AFTER_THE_DEAL = (Muggins, OptionsChanged)
"""The entries that may follow the next deal's automatic ``deal`` while the deal before it
has not yet been left: a muggins call (or "no muggins") and a table option. Any other entry
begins the next deal (its starter, its cards, a penalty about it)."""


def _opens_count_call(report: Report) -> bool:
    """Whether ``report`` is a hand's or crib's claim that opened a muggins window on itself
    (the engine's ``Turn.call``): while it is open its page must not tell the count."""
    event, call = report.event, report.next.call
    return (isinstance(event, Claim) and call is not None and call.claimed is not None
            and call.owner == event.player and call.claim.reason in COUNTED)


def _told(page: Page) -> bool:
    """A page that tells a claim's true count (its count page, with what was said)."""
    return page.count is not None and page.count.claimed is not None


def withhold(state: AppState, report: Report, pages: list[Page], taught: list[Page],
             helped: frozenset[str]) -> tuple[AppState, list[Page]]:
    """Muggins games: a shared screen never tells the table a claim's true count while an
    opponent may still call muggins on it (ACC 10). The pages of a hand's or crib's claim
    that tell it (its count, with what was said, and with teaching the lessons on it) are
    not shown while the engine's window on that claim is open: they are read off the
    record when the entry that shuts it is made (:func:`held_back`). The award line says
    what was claimed meanwhile."""
    if _opens_count_call(report):
        pages = [page for page in pages if not _told(page)]
        taught, helped = [], frozenset()
    return replace(state, helped=state.helped | helped), [*pages, *taught]


def held_back(state: AppState, before: GameState, report: Report, *, teach: bool = True,
              ) -> tuple[list[Page], frozenset[str]]:
    """The pages of the hand's or crib's claim whose muggins window ``report``'s entry shut
    (none when it shut none), and the lessons they give: the claim's count page with what
    was said and, teaching, its lessons, made from the claim's own entry in the record as
    they would have been shown at it, so an undo or a restart in between changes nothing.
    A crib's window stays open across the next deal's automatic ``deal``: its page comes
    when the window shuts before the next deal begins (a muggins call, "no muggins"), and
    not at all once the next deal has begun (its starter, a card dealt or laid), so never
    in the middle of its play. A claim that was right brings no page but with teaching: the
    award line said it while it could be called, nothing can be called on it now, and a
    page would only cost its reader a press (a short or an over claim's page says what was
    said and what was there)."""
    call = before.open_call
    session = state.session
    none: tuple[list[Page], frozenset[str]] = ([], frozenset())
    if (session is None or call is None or call.claimed is None
            or call.claim.reason not in COUNTED or report.next.call == call):
        return none
    game = session.game.copy()
    since = [game.pop()]  # the entry that shut the window
    while game.events and not isinstance(game.events[-1], Claim):
        since.append(game.pop())
    found = game.report
    if found is None or not _opens_count_call(found) or found.next.call != call:
        return none
    since.reverse()
    dealt = next((at for at, event in enumerate(since) if isinstance(event, Deal)), None)
    if dealt is not None and not all(isinstance(event, AFTER_THE_DEAL)
                                     for event in since[dealt + 1:]):
        return none  # the next deal has begun: the page would come in the middle of it
    claimed = replace(state, session=Session(game.copy(), session.table))
    after = game.state
    claim = game.pop()
    # A right claim's page tells nothing the table can still act on once its window has
    # shut (the award line said the claim while it could be called; a short or an over
    # claim's page says what was said): it is read only where it teaches.
    pages = [page for page in app_pages.entry_pages(game.state, after, found)
             if _told(page) and (state.teaching or not _claimed_right(page))]
    if not teach:
        return pages, frozenset()
    taught, helped = teaching.lessons(claimed, game.state, claim, found.awards)
    return [*pages, *taught], helped


def _claimed_right(page: Page) -> bool:
    """A count's page whose claim was the count itself (muggins games)."""
    count = page.count
    return count is not None and count.claimed is not None and count.claimed == count.points


def read_lessons(state: AppState) -> AppState:
    """``state`` with the lessons its game has given read off the record, if it was resumed
    and they are not read yet (:func:`lessons_given`)."""
    if not state.helped_unread:
        return state
    return replace(state, helped=lessons_given(state), helped_unread=False,
                   phone_made=frozenset())


def lessons_given(state: AppState) -> frozenset[str]:
    """The once-a-game lessons the game in ``state`` has given, read off its record: each
    entry replayed as the table made it, with the lessons it brought up then (the basics
    offered at a teaching game's start or as teaching was turned on before its first card,
    the coach's steps, the cut's deal page, a near
    miss, rule help, and a claim's lessons once the muggins window on it shut), so a
    lesson given before a restart is not given again, and one not yet given still is. An
    entry a phone made (``state.phone_made``) gave the box no lesson (its coach pages were
    that phone's, :mod:`pegboard.app.seat_entry`), nor did a claim's window it shut."""
    session = state.session
    assert session is not None
    game = session.game.copy()
    games = [game.copy()]
    while game.events:
        game.pop()
        games.append(game.copy())
    games.reverse()
    table = session.header.table
    start = replace(state, session=Session(games[0], table))
    helped = set(teaching.BASICS) if start.teaching else set()
    for at, (before, after) in enumerate(itertools.pairwise(games)):
        report = after.report
        assert report is not None
        event = report.event
        if isinstance(event, OptionsChanged):
            table = table.with_option(event)
        now = replace(state, session=Session(after, table), helped=frozenset(helped))
        if (isinstance(event, OptionsChanged) and event.teaching and now.teaching
                and teaching.before_the_first_card(after.state)):
            helped |= set(teaching.BASICS)  # offered as teaching was turned on (pegboard.app.menus)
        if at in state.phone_made:
            continue
        helped |= held_back(now, before.state, report)[1]
        if not _opens_count_call(report):  # else taught when the window on it shuts
            helped |= teaching.given_by(now, before.state, event, report.awards)
        if isinstance(event, Cut) and after.state.dealer is not None:
            # the cut's deal page (pegboard.app.start.cut_key)
            helped |= teaching.given_by(replace(now, helped=frozenset(helped)), after.state,
                                      Deal(), ())
    return frozenset(helped)


def standing_offers(session: Session) -> tuple[PenaltyOffer, ...]:
    """The penalties the table's last entry put to it and that are still open: the offer
    pages on screen when the game stopped (a renege, a false claim of game).

    An offer page stands from the entry whose report made the offer until the table answers
    it: OK applies it (a ``penalty`` entry), GO lets it pass (a ``let_pass`` entry), and any
    other entry goes on without it. So the offers standing are read off the record: those in
    the reports of the last entry made (with the claim said with a card or go, and any option
    entered or offer let pass after it) that the engine still holds open and not passed. A
    game resumed after a power cut puts them to the table again, and so does an undo that
    takes back the table's answer."""
    events = session.events
    step = 0
    while step < len(events) and isinstance(events[-1 - step], OptionsChanged | LetPass):
        step += 1
    if step == len(events):
        return ()
    step += 1
    last = events[-step]
    before = events[-1 - step] if step < len(events) else None
    if isinstance(last, Claim) and isinstance(before, Play | Go) and (
            before.player == last.player):
        step += 1  # one for go or last, claimed with the card or go that won it
    found = [offer for report in session.game.reports(len(events) - step)
             for offer in report.offers]
    return tuple(offer for offer in session.state.offers
                 if not offer.resolved and not offer.passed
                 and replace(offer, passed=False) in found)

