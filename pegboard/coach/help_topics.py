"""The rule help topics: the basics a first-time player needs, then the disputes that come up
at cribbage tables.

The shape of a topic (its text, screen pages and reference) is :mod:`pegboard.coach.help_shape`;
the basics are written in :mod:`pegboard.coach.help_basics`.
"""

from __future__ import annotations

from pegboard.coach.help_basics import BASICS
from pegboard.coach.help_shape import (
    ACC_EDITION,
    LINE_WIDTH,
    PAGE_LINES,
    RULES_PAGE,
    Topic,
    UnknownTopicError,
    acc,
    paginate,
    rules_page,
)

__all__ = [
    "ACC_EDITION",
    "LINE_WIDTH",
    "PAGE_LINES",
    "RULES_PAGE",
    "TOPICS",
    "Topic",
    "UnknownTopicError",
    "paginate",
    "topic",
]

TOPICS: tuple[Topic, ...] = (
    *BASICS,
    Topic(
        id="crib-flush",
        title="Flush in the crib",
        reference=rules_page("The show"),
        text=(
            "The crib scores a flush only when all five cards are the same suit: its four "
            "cards and the starter. That flush is worth 5. Four cards of one suit in the crib "
            "with a starter of another suit score nothing for the flush.\n\n"
            "A hand is different: four hand cards of one suit score 4, and 5 when the starter "
            "matches them too. In five-card cribbage a three-card hand flush scores 3 (4 with "
            "the starter); the crib still needs all five."
        ),
        screen=(
            "The crib needs all 5 cards of one suit, starter included: 5 points.",
            "Four of a suit in the crib scores no flush.",
            "A hand's 4-card flush scores 4 (5 with the starter).",
        ),
    ),
    Topic(
        id="go-and-31",
        title="Go and 31",
        reference=rules_page("The play"),
        text=(
            "A player who cannot lay a card without passing 31 says \"go\". The others keep "
            "playing while they can. When nobody can play, whoever laid the last card pegs 1 "
            "for the go.\n\n"
            "Reaching exactly 31 pegs 2 instead. Go and 31 never add up: 31 is worth 2, never "
            "3. A fifteen, pair or run made by that same card still counts on top.\n\n"
            "The last card of the whole play pegs 1 in the same way, or 2 if it makes 31."
        ),
        screen=(
            "Nobody can play? The last card laid pegs 1 for the go.",
            "Exactly 31 pegs 2 instead. Never 3: go and 31 do not add.",
            "Pairs, runs and 15s made by that card still count.",
            "Last card of the play: 1, or 2 at 31.",
        ),
    ),
    Topic(
        id="play-runs",
        title="Runs in the play",
        reference=rules_page("The play"),
        text=(
            "In the play, the last three or more cards laid form a run when their ranks are "
            "consecutive in any order: 5-7-6 is a run of three, and a 4 or an 8 laid next makes "
            "it a run of four. The longest run ending with the new card scores 1 per card.\n\n"
            "A repeated rank inside those cards breaks the run: 5-6-6-7 is no run. There are no "
            "double runs in the play (double runs belong to the show). Ace is low and runs do "
            "not wrap: Q-K-A is no run. A go or 31 starts a new count, and runs never reach "
            "across it."
        ),
        screen=(
            "The last 3+ cards laid are a run in any order: 5 7 6 is a run of 3.",
            "A repeated rank breaks it: 5 6 6 7 is no run. No double runs in the play.",
            "Ace is low: Q K A is no run. Runs stop at a go or 31.",
        ),
    ),
    Topic(
        id="lead-after-go",
        title="Who leads after a go",
        reference=rules_page("The play"),
        text=(
            "After a go or 31 the count starts again at 0. The new count is led by the player "
            "to the left of the one who laid the last card, skipping anyone with no cards left. "
            "With two players that is the player who did not lay the last card, unless they "
            "have no cards left: then the player who laid it leads again.\n\n"
            "Cards from the old count never combine with the new one."
        ),
        screen=(
            "After a go or 31 the count starts at 0.",
            "The player left of the last card's player leads. Empty hands are skipped.",
            "Two players: the other one leads. Out of cards? The last player leads again.",
        ),
    ),
    Topic(
        id="heels-nobs",
        title="His heels, his nobs",
        reference=f"{acc('6.3b')}; {rules_page('The show')}",
        text=(
            "His heels: when the starter turned up is a jack, the dealer pegs 2 at once. It "
            "counts even at the end of the game and can win it.\n\n"
            "His nobs: a jack in a hand or in the crib of the same suit as the starter scores "
            "1, counted in the show with that hand. A jack starter is never his nobs, and a "
            "jack in hand of another suit scores nothing by itself."
        ),
        screen=(
            "Jack turned as starter: dealer pegs 2 now (his heels). It can win the game.",
            "Jack in hand or crib of the starter's suit: 1 for his nobs, in the show.",
            "A jack starter is never his nobs.",
        ),
    ),
    Topic(
        id="show-order",
        title="Counting out in order",
        reference=rules_page("The show", "Winning"),
        text=(
            "Hands are counted in order: the player left of the dealer first, then clockwise, "
            "the dealer's hand, and the crib last. Each score is pegged before the next is "
            "counted.\n\n"
            "The game ends the instant a side reaches the target (121, or 61). Nothing after "
            "that is counted, even a bigger hand or the crib. That is why the player who "
            "counts first often wins a close game."
        ),
        screen=(
            "Count left of the dealer first, clockwise, dealer, then the crib.",
            "The game ends the moment a side reaches 121 (or 61).",
            "Nothing after that is counted, even a bigger hand.",
        ),
    ),
    Topic(
        id="renege",
        title="Renege",
        reference=acc("7.3"),
        text=(
            "A player who says go while holding a card that could be played without passing "
            "31 has reneged. The opponent may claim 2 points for each card that could have "
            "been played.\n\n"
            "A claimed renege takes the play back to that go: every card laid since returns "
            "to its player's hand, and the points the play and the show pegged since are "
            "retracted. The play then goes on from the count of the go, and the offender "
            "must lay a card that fits.\n\n"
            "When it can be claimed: the ACC rule, as the rules page gives it, sets no moment "
            "after which the claim is lost. Pegboard takes the play back when the claim "
            "comes in the deal of the renege, until that deal's crib is counted, even "
            "after a win in its play or "
            "show (a win made on points pegged after the renege was never rightly made). "
            "Later in the game the claim only pays the 2 points a card: the cards are "
            "gathered, so nothing can be put right. The cards that fitted are laid again, "
            "never set aside as dead. A go said in error is taken back with UNDO before "
            "anyone plays on (docs/rules.md, \"Claim windows\").\n\n"
            "If the game was won in the play while the offender still held a card, the "
            "claim is made by showing the cards still held: the box judges the renege from "
            "them.\n\n"
            "A card that would pass 31 is not a renege: it simply cannot be played."
        ),
        screen=(
            "Saying go while holding a card that fits is a renege.",
            "The opponent may claim 2 for each card that could have been played.",
            "Cards laid after it come back, points too; play goes on from the go.",
            "Claim it in its deal, until the crib is counted, even after a win.",
            "Later it only pays 2 a card: the cards are gathered.",
            "A card that would pass 31 is no renege.",
        ),
    ),
    Topic(
        id="muggins",
        title="Muggins",
        reference=acc("10"),
        text=(
            "Muggins is an option, off unless the table turns it on. Each player counts and "
            "claims their own hand, crib and pegging points. Points a player under-claims can "
            "be taken by an opponent who calls \"muggins\" before the next score is pegged.\n\n"
            "Muggins does not apply to penalties, to a missed his heels, or to muggins itself.\n\n"
            "The window is the ACC's, counted in scores pegged: the next claim, or points "
            "pegged straight away, shut it. An entry that pegs nothing leaves it open: a card "
            "that scores nothing, a penalty that moves no peg, and the next deal too. There "
            "Pegboard differs from a table of cards, where gathering the cards ends any "
            "check: the box still holds the count, so the miss stays provable until the next "
            "score is pegged (docs/rules.md, \"Claim windows\").\n\n"
            "An over-claim is corrected to the true score. An over-claim that would have "
            "reached the game hole is a false claim of game (ACC 8.4): the opponent takes the "
            "points over-claimed and the claimer goes 15 points back."
        ),
        screen=(
            "An option: you count and claim your own points.",
            "Points you miss go to an opponent who calls muggins before the next score.",
            "Only a score pegged shuts it; the next deal does not.",
            "Not for penalties, his heels or muggins itself.",
            "Over-claims are corrected; one that pegs out costs 15 back (ACC 8.4).",
        ),
    ),
    Topic(
        id="skunk",
        title="Skunks",
        reference=rules_page("Winning"),
        text=(
            "A player who loses with 90 points or less is skunked; with 60 or less, double "
            "skunked. In a 61-hole game the skunk line is 30 and there is no double skunk. "
            "With three players the skunk goes by the lowest score.\n\n"
            "Game points: ACC tournament rules give 2 for a win and 3 for any skunk. The "
            "classic scheme gives 1 for a win, 2 for a skunk and 4 for a double skunk."
        ),
        screen=(
            "Lose with 90 or less: skunked. 60 or less: double skunk. 61 holes: 30, no double.",
            "ACC: win 2, any skunk 3. Classic: win 1, skunk 2, double 4.",
        ),
    ),
    Topic(
        id="three-for-last",
        title="Five-card: 3 for last",
        reference=rules_page("The deal"),
        text=(
            "Five-card cribbage is played to 61 by two players. Each is dealt 5 cards, puts 2 "
            "in the crib and keeps 3. At the first deal of the game the pone (the player who "
            "does not deal) pegs 3 at once: \"three for last\", to make up for the dealer's "
            "first crib.\n\n"
            "The play is a single count. A three-card hand flush scores 3 (4 with the "
            "starter); the crib still needs all five cards of one suit."
        ),
        screen=(
            "Five-card game to 61: deal 5, 2 to the crib, keep 3.",
            "First deal: the pone pegs 3 at once, three for last.",
            "Hand flush 3 (4 with the starter).",
        ),
    ),
    Topic(
        id="three-four-players",
        title="3 and 4 players",
        reference=rules_page("The deal"),
        text=(
            "Three players: each is dealt 5 cards and one more goes from the pack straight to "
            "the crib; each player puts 1 card in the crib and keeps 4. Each plays for "
            "themselves, and the first to 121 wins.\n\n"
            "Four players: each is dealt 5 and puts 1 in the crib. Partners sit opposite each "
            "other (first and third seat, second and fourth) and share one score.\n\n"
            "The deal passes to the left every hand, and the player left of the dealer leads "
            "and counts first."
        ),
        screen=(
            "3 players: 5 each, 1 each to the crib, and 1 from the pack.",
            "4 players: 5 each, 1 each to the crib. Partners sit opposite and share a score.",
            "All keep 4. The deal passes left.",
        ),
    ),
    Topic(
        id="cut-for-deal",
        title="Cutting for the deal",
        reference=rules_page("The deal"),
        text=(
            "Each player cuts; the lowest card deals (ace is low). A tie for the lowest cuts "
            "again. The deal then passes to the left every hand. In a match the loser of a "
            "game deals first in the next one, unless the table chose to cut again or to pass "
            "the first deal to the left."
        ),
        screen=(
            "Lowest cut deals, ace low. A tie for lowest cuts again.",
            "The deal passes left each hand.",
            "Next game: the loser deals first.",
        ),
    ),
    Topic(
        id="pairs",
        title="Pairs go by rank",
        reference=rules_page("Card values and combinations"),
        text=(
            "Pairs are cards of the same rank. A jack and a queen are both worth 10 for "
            "counting fifteens, but they are no pair. A pair scores 2, three of a kind (a "
            "pair royal) 6, and four of a kind 12. In the play they must be laid one after "
            "another in the same count."
        ),
        screen=(
            "Pairs go by rank: J and Q count 10 each but are no pair.",
            "Pair 2, three of a kind 6, four 12.",
        ),
    ),
)

_BY_ID = {t.id: t for t in TOPICS}


def topic(topic_id: str) -> Topic:
    """The topic with this id; an unknown id raises :class:`UnknownTopicError`.

    >>> topic("renege").reference
    'ACC 7.3 (2020)'
    """
    try:
        return _BY_ID[topic_id.strip().lower()]
    except KeyError:
        known = ", ".join(_BY_ID)
        raise UnknownTopicError(f"no rule topic {topic_id!r}: choose one of {known}") from None
