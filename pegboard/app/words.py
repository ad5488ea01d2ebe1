"""What the screens say, in players' words: awards, counts, offers, names and scores.

Cards show by rank only ("7", "10", "J") unless the player named the suit: the card wheel
enters unasked suits as stand-ins, and a stand-in's suit means nothing at the table.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.app.state import Count, Page
from pegboard.app.view import PageKind, Screen
from pegboard.coach.help_shape import LINE_WIDTH, Continued, wrap_lines
from pegboard.coach.help_shape import TEXT_WIDTH as TEXT_WIDTH  # the screen's, for the ui
from pegboard.coach.help_shape import rejoined as rejoined  # the wider outputs' join
from pegboard.rules.cards import Card
from pegboard.rules.events import (
    Crib,
    Cut,
    Deal,
    Event,
    Go,
    LaidAway,
    LetPass,
    OptionsChanged,
    OwnCount,
    Peg,
    Penalty,
    Play,
    Show,
    Starter,
    StarterSuit,
)
from pegboard.rules.facts import ClaimClosed, Report
from pegboard.rules.scoring import Breakdown
from pegboard.rules.speech import Said, count_phrases, phrase_words
from pegboard.rules.state import (
    Award,
    GameState,
    PenaltyOffer,
    PendingClaim,
    Reason,
    Skunk,
    TakeBack,
)
from pegboard.rules.value import replace

if TYPE_CHECKING:
    from pegboard.app import picker
else:
    picker = lazy.module("pegboard.app.picker")

_PLAIN = {
    Reason.GO: "Go", Reason.LAST_CARD: "Last card", Reason.HIS_HEELS: "His heels",
    Reason.PENALTY: "Penalty", Reason.MUGGINS: "Muggins",
    Reason.THREE_FOR_LAST: "Three for last", Reason.PEG: "Peg",
}


def award_text(award: Award, names: tuple[str, ...]) -> str:
    """A pegging award as the screen says it: "Ann: Fifteen for 2", "Ben: Run of 4 for 4",
    "Ann: Penalty, 2 back", "Ben: Three for last"."""
    name = names[award.player]
    what = _what(award)
    if award.points < 0:
        return f"{name}: {what}, {-award.points} back"
    if award.reason == Reason.THREE_FOR_LAST:
        return f"{name}: {what}"
    return f"{name}: {what} for {award.points}"


def awards_text(awards: list[Award], names: tuple[str, ...]) -> str:
    """Awards made by one entry, as short as the screen's one line needs: one award as
    :func:`award_text` says it; a player's several together as "Ann +5: 31, run of 3"."""
    if len(awards) == 1:
        return award_text(awards[0], names)
    parts = []
    for player in dict.fromkeys(a.player for a in awards):
        mine = [a for a in awards if a.player == player]
        total = sum(a.points for a in mine)
        reasons = ", ".join(_short(a) for a in mine)
        parts.append(f"{names[player]} {total:+d}: {reasons}")
    return "; ".join(parts)


def _what(award: Award) -> str:
    if award.reason == Reason.RUN and award.cards:  # a claimed part of a run has no cards
        return f"Run of {len(award.cards)}"
    return _PLAIN.get(award.reason, award.reason.capitalize())


def _short(award: Award) -> str:
    short = {Reason.THIRTY_ONE: "31", Reason.FIFTEEN: "15"}.get(award.reason)
    return short or _what(award).lower()


def owed_label(claim: PendingClaim) -> str:
    """Every kind of score a claim is for, as the engine owes it ("thirty-one, pair", "run,
    last card", "hand"): a player who claims for each kind named is never mugginsed for one
    the screen did not name."""
    reasons = claim.reasons or (claim.reason,)
    return ", ".join(str(reason) for reason in reasons)


TITLE_CHARS = LINE_WIDTH - 1
"""Characters a page's title may take on the screen (the last column holds the key hint's
mark): a title longer than this would be cut."""


def heading(name: str, what: str, rest: str = "") -> tuple[str, tuple[str, ...]]:
    """A page's title naming ``name``'s ``what`` ("Ann's hand: 12", ``rest`` after the
    colon), fitted so nothing is cut: when it is too long for the screen, the title is
    ``what`` alone and the name comes first on the page's lines (a name is at most 20
    characters, a line 21)."""
    title = f"{name}'s {what}" + (f": {rest}" if rest else "")
    if len(title) <= TITLE_CHARS:
        return title, ()
    return what.capitalize() + (f": {rest}" if rest else ""), (name,)


def claimed_line(name: str, what: str, claimed: int) -> str:
    """What a hand's or crib's claim leaves on the award line, so the other side can judge
    it: "Ann's crib: claimed 6", or as much of that as fits the line ("Ann claimed 12
    (crib)", "Margaret claimed 12", then "Crib: claimed 12")."""
    for line in (f"{name}'s {what}: claimed {claimed}", f"{name} claimed {claimed} ({what})",
                 f"{name} claimed {claimed}"):
        if len(line) <= LINE_WIDTH:
            return line
    return f"{what.capitalize()}: claimed {claimed}"


def count_claimed(report: Report, names: tuple[str, ...]) -> str | None:
    """A hand's or crib's claim that ``report`` closed, as :func:`claimed_line` words it;
    None when it closed none."""
    counts = [fact for fact in report.of(ClaimClosed)
              if fact.claim.reason in (Reason.HAND, Reason.CRIB)]
    if not counts:
        return None
    fact = counts[-1]
    return claimed_line(names[fact.claim.player], fact.claim.reason.value, fact.claimed)


def count_heading(count: Count, names: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """A count page's title and the lines that come before the count: "Ann's hand: 12",
    in a muggins game what was said on a line of its own ("said 10"); fitted to the screen
    (:func:`heading`)."""
    title, first = heading(names[count.player], "crib" if count.crib else "hand",
                           str(count.points))
    if count.claimed is not None and count.claimed != count.points:
        first = (*first, f"said {count.claimed}")
    return title, first


def count_title(count: Count, names: tuple[str, ...]) -> str:
    """"Ben's hand: 8", or in a muggins game "Ben's hand: 8 (said 6)" (where there is room:
    the device's pages use :func:`count_heading`)."""
    what = "crib" if count.crib else "hand"
    said = "" if count.claimed is None or count.claimed == count.points else (
        f" (said {count.claimed})")
    return f"{names[count.player]}'s {what}: {count.points}{said}"


def count_lines(count: Count) -> tuple[str, ...]:
    """A hand or crib counted aloud, one phrase a line ending in the running total, in the
    engine's one wording of a count (:func:`pegboard.rules.speech.count_phrases`): "fifteen
    2 (7 8)", "a pair is 4 (7 7)", "run of 3 is 7 (6 7 8)", "double run is 12 (7 8♣ 8♦ 9)",
    "flush of 4 is 11", "his nob is 12"; a card whose suit was entered shows it when another
    card of its rank is in the count (a suit the wheel chose is never shown); a hand of
    nothing is "nineteen" (there is no way to score 19)."""
    everything = {c for item in count.items for c in item.cards} | set(count.cards)
    ranks = Counter(c.rank for c in everything)

    def label(card: Card) -> str:
        shown = ranks[card.rank] > 1 and card in count.entered
        return card.pretty if shown else picker.rank_label(card.rank)

    lines = []
    for phrase in count_phrases(Breakdown(count.items)):
        cards = " ".join(label(c) for c in phrase.cards)
        words = phrase_words(phrase).removeprefix("a ")
        if phrase.said is Said.RUN:
            lines.append(f"run of {phrase.length} is {phrase.total} ({cards})")
        elif phrase.said is Said.FLUSH:
            lines.append(f"flush of {phrase.length} is {phrase.total}")
        elif phrase.said is Said.NOBS:
            lines.append(words)
        elif phrase.said in (Said.PAIR, Said.ANOTHER_PAIR):
            lines.append(f"{phrase_words(phrase)} ({cards})")
        elif len(f"{words} ({cards})") < LINE_WIDTH:  # the last column holds the scroll mark
            lines.append(f"{words} ({cards})")
        else:  # the cards on a line of their own, not cut off at the edge; a wider output
            lines.extend((words, Continued(f"  ({cards})")))  # joins them back to their phrase
    if not lines:
        lines.append("nineteen")  # the players' word for a count of nothing, as the voice says
    return (*lines, *cards_lines(count.cards, count.entered))


def cards_lines(cards: Sequence[Card], entered: Collection[Card]) -> tuple[str, ...]:
    """A count's cards under it ("cards: 7 8♣ 8♦ 9"): each card whose suit a player entered
    (``entered``: what the engine knows) with that suit, every other by its rank alone (its
    suit is the card wheel's stand-in, no fact). Too long for the screen's line ("cards: 10♥
    10♦ 10♣ 10♠"), the last cards go on a line of their own, not cut off at the edge."""
    said = [card.pretty if card in entered else picker.rank_label(card.rank) for card in cards]
    line = "cards: " + " ".join(said)
    if len(line) < LINE_WIDTH:  # the last column holds the scroll mark
        return (line,)
    first = "cards:"
    for at, word in enumerate(said):
        if len(f"{first} {word}") >= LINE_WIDTH:
            return (first, Continued("  " + " ".join(said[at:])))
        first = f"{first} {word}"
    return (first,)


def offer_page(gs: GameState, offer: PenaltyOffer) -> Page:
    """A penalty the engine found (a renege, a false claim of game), offered to the table."""
    event = Penalty(offer.player, offer.infraction, offer.points, offer.to)
    who, to = gs.names[offer.player], gs.names[offer.to]
    if offer.infraction == "renege":
        held = " ".join(picker.rank_label(c.rank) for c in offer.cards)
        lines = (f"{who} said go at {offer.count}", f"holding {held}",
                 f"{offer.points} to {to}", offer.rule)
        return Page("Renege", lines, offer=event)
    lines = (f"{who} claimed game", f"on a wrong count: {offer.points}", f"to {to}, 15 back",
             offer.rule)
    return Page("False claim", lines, offer=event)


def take_back_page(gs: GameState, back: TakeBack) -> Page:
    """What a renege's penalty took back (ACC 7.3): the cards returned to each hand, the
    points each side lost, and where the play goes on."""
    lines = [f"Back to {gs.names[back.offender]}'s go, {back.count}"]
    for seat, cards in enumerate(back.cards):
        if cards:
            held = " ".join(picker.rank_label(c.rank) for c in cards)
            lines.append(f"{gs.names[seat]} takes back {held}")
    for side, points in enumerate(back.points):
        if points:
            lines.append(f"{side_name(gs, side)} loses {points}")
    return Page("Taken back", tuple(lines), kind=PageKind.TAKE_BACK)


_ENTRY_NAMES: dict[type[Event], str] = {
    Starter: "the starter", Crib: "the crib", Penalty: "the penalty", Deal: "the deal",
    Cut: "the deal", OptionsChanged: "the option", StarterSuit: "the starter's suit",
}
"""What "Undone: ..." calls an entry that is no one player's."""


def describe(event: Event, names: tuple[str, ...]) -> str:
    """An entry as "Undone: ..." names it."""
    match event:
        case Play(player=player, card=card):
            return f"{names[player]}'s {picker.rank_label(card.rank)}"
        case Go(player=player):
            return f"{names[player]}'s go"
        case Show(player=player):
            return f"{names[player]}'s hand"
        case Peg(player=player, points=points):
            return f"{names[player]}'s {points}"
        case OwnCount(player=player):
            return f"{names[player]}'s own count"
        case LaidAway(player=player):
            return f"{names[player]}'s crib cards"
        case LetPass(player=player, infraction=infraction):
            return f"letting {names[player]}'s {infraction} pass"
    return _ENTRY_NAMES.get(type(event), event.TYPE)


def wrap(text: str, width: int = TEXT_WIDTH) -> tuple[str, ...]:
    """Words in lines of at most ``width`` characters (the screen's text is 21 wide:
    :data:`TEXT_WIDTH`), each line after the first marked as going on from the one before,
    so that a wider output joins them."""
    return wrap_lines(text, width)


def no_suits(line: str) -> str:
    """Card notation without the suit ("7H" -> "7", "TD" -> "10"): unasked suits are
    stand-ins."""
    return re.sub(r"\b(10|[2-9TJQKA])[CDHS]\b",
                  lambda m: "10" if m.group(1) == "T" else m.group(1), line)


def side_name(gs: GameState, side: int) -> str:
    """A side by its players' names: "Ann", or "Ann & Cy" for a partnership."""
    return " & ".join(gs.names[p] for p in range(gs.players) if gs.side_of(p) == side)


def score_line(gs: GameState) -> str:
    """Every side's score on one line, as the board shows it (the winner at the target):
    "Ann 45  Ben 38"."""
    return "  ".join(f"{side_name(gs, s)} {gs.shown[s]}" for s in range(gs.sides))


def result_lines(gs: GameState) -> tuple[str, tuple[str, ...]]:
    """The game-over title and what matters below it, each line short enough for the screen:
    "Ann wins", "Skunk: 3 game pts", and in a match "Match 1-0, best of 3"."""
    result = gs.result
    if result is None:
        return "Game over", (score_line(gs),)
    skunk = {Skunk.NONE: "No skunk", Skunk.SKUNK: "Skunk", Skunk.DOUBLE: "Double skunk"}[
        result.skunk]
    points = result.game_points[result.winner]
    lines = [f"{skunk}: {points} game pt{'s' if points != 1 else ''}"]
    if gs.rules.match_games > 1:
        wins = "-".join(str(w) for w in gs.match.wins)
        if gs.match.winner is not None:
            lines.append(f"{side_name(gs, gs.match.winner)} wins match {wins}")
        else:
            lines.append(f"Match {wins}, best of {gs.rules.match_games}")
    return f"{side_name(gs, result.winner)} wins", tuple(lines)


def scores_lines(gs: GameState) -> tuple[str, ...]:
    """The scores screen: each side as the board shows it (the winner at the target), then
    the match or game points so far."""
    lines = [f"{side_name(gs, s)}: {gs.shown[s]}" for s in range(gs.sides)]
    if gs.rules.match_games > 1:
        wins = "-".join(str(w) for w in gs.match.wins)
        points = "-".join(str(p) for p in gs.match.game_points)
        lines.append(f"Match (best of {gs.rules.match_games}): {wins}")
        lines.append(f"Game points: {points}")
    return tuple(lines)


def count_page(gs: GameState, count: Count) -> Page:
    """The show page of one count."""
    count = replace(count, entered=count.entered | gs.suits_entered)
    title, first = count_heading(count, gs.names)
    what = "crib" if count.crib else "hand"
    return Page(title, (*first, *count_lines(count)), Screen.SHOW, count=count,
                kind=PageKind.COUNT, named=f"{gs.names[count.player]}'s {what}")
