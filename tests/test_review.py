"""Discard review by expected value: the figures are the advice engine's, the loss is never
negative and 0 exactly when the kept cards were worth the advice's first, and every reason it
gives is borne out by the scorer."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pegboard.coach.advice import advise
from pegboard.coach.review import DiscardReview, Where, Why, review_discard
from pegboard.errors import InvalidCardError
from pegboard.rules.cards import DECK, Card, parse_cards
from pegboard.rules.show import score_hand
from tests.support.strategies import different_cards

deals = different_cards(6)


def unseen(dealt: tuple[Card, ...], *also: Card) -> list[Card]:
    return [c for c in DECK if c not in dealt and c not in also]


def check_reason(why: Why, dealt: tuple[Card, ...], keep: tuple[Card, ...]) -> None:
    """The scorer finds the combination a reason names, wherever the reason says it scores."""
    if why.where is Where.HAND:
        # Before the cut: it scores with every starter the player had not seen (a run or a
        # flush may grow with the starter: A-2-3 is a run of four with a 4).
        grows = why.kind in ("run", "flush")
        for starter in unseen(dealt):
            items = score_hand(keep, starter).items
            assert any(
                i.kind == why.kind
                and (set(why.cards) <= set(i.cards) if grows else set(why.cards) == set(i.cards))
                and i.points >= why.points
                for i in items
            ), (why, starter)
        return
    rest = unseen(dealt)
    if why.where is Where.CRIB:
        crib = (*why.cards, *rest[-(4 - len(why.cards)):])
        items = score_hand(crib, rest[len(rest) // 2]).items
        assert any(i.kind == why.kind and set(i.cards) == set(why.cards) for i in items), why
        return
    # With any one card of a value (or rank, for a run): every such unseen card completes it.
    completing = [c for c in rest
                  if (c.pips if why.kind == "fifteen" else int(c.rank)) in why.needs]
    assert completing, why
    for card in completing:
        others = [c for c in rest if c is not card]
        filler = others[: 4 - len(why.cards) - 1]
        starter = others[-1]
        items = score_hand((*why.cards, card, *filler), starter, crib=True).items
        wanted = {*why.cards, card}
        if why.kind == "fifteen":
            assert any(i.kind == "fifteen" and set(i.cards) == wanted for i in items), (why, card)
        else:
            assert any(i.kind == "run" and wanted <= set(i.cards) for i in items), (why, card)


@settings(max_examples=120, deadline=None)
@given(deals, st.booleans(), st.integers(0, 14), st.integers(0, 51))
# Every 5 in hand: 4-6 laid away waits for no 5 (no reason may say it does).
@example(list(parse_cards("5C 5D 5H 5S 6C 4C")), False, 0, 0)
# Four jacks kept: no starter can miss every jack's suit, and nobs is never a reason.
@example(list(parse_cards("JC JD JH JS 6C 4C")), True, 0, 0)
def test_review_agrees_with_the_advice_and_its_reasons_with_the_scorer(
    dealt_list: list[Card], dealer: bool, which: int, starter_pick: int
) -> None:
    dealt = tuple(dealt_list)
    keeps = list(combinations(dealt, 4))
    kept = keeps[which]
    starter = unseen(dealt)[starter_pick % 46]
    review = review_discard(dealt, kept, dealer=dealer, starter=starter)
    options = advise(dealt, dealer=dealer)
    # The review's best discard is the advice's first.
    assert review.best.discard == options[0].discard
    assert review.loss >= 0
    # 0 exactly when the kept cards are worth the advice's first (itself, or tied with it).
    assert (review.loss == 0) == (review.kept.net == options[0].net)
    if set(kept) == set(options[0].keep):
        assert review.loss == 0 and review.followed
    text = "\n".join(review.lines())
    assert ("Given up" in text) == (review.loss > 0)
    assert "could have" not in text.lower()
    if review.loss == 0:
        assert "The right discard." in text
    for why in (*review.why_best(), *review.why_kept()):
        keep = review.best.keep if why in review.why_best() else review.kept.keep
        check_reason(why, dealt, keep)


def test_the_advised_keep_is_right_and_the_cut_favoured_another() -> None:
    dealt = tuple(parse_cards("5H 5S 6D JC 4C KS"))
    first = advise(dealt, dealer=False)[0]
    starter = Card.parse("QC")  # 5-5-J-K-Q scores 18, 4-5-5-6-Q 16
    review = review_discard(dealt, first.keep, dealer=False, starter=starter)
    assert review.loss == 0 and review.followed
    lines = review.lines()
    assert lines[1] == "The right discard."
    assert review.favoured is not None
    cards, points = review.favoured
    assert points == score_hand(cards, starter).total > (review.scored or 0)
    assert lines[2].startswith("The cut favoured ")
    assert lines[2].endswith(f"({points} with the Q♣).")


def test_the_pones_crib_is_a_cost_and_the_dealers_a_gain() -> None:
    dealt = tuple(parse_cards("7H 8C 9D 2S 3C KH"))
    kept = tuple(parse_cards("7H 8C 9D KH"))
    pone = review_discard(dealt, kept, dealer=False)
    dealer = review_discard(dealt, kept, dealer=True)
    assert pone.lines()[0] == "Kept 7♥ 8♣ 9♦ K♥: -0.3 (hand 6.9, crib -7.1) on average."
    assert dealer.lines()[0] == "Kept 7♥ 8♣ 9♦ K♥: 14.0 (hand 6.9, crib +7.1) on average."
    assert dealer.followed and not pone.followed
    assert pone.lines()[1:] == (
        "Best: lay away 2♠ K♥, keep 7♥ 8♣ 9♦ 3♣: 3.4 (hand 7.2, crib -3.8).",
        "Given up: 3.6 on average.",
        "Why: 7+8 is a fifteen and 7-8-9 a run before the cut; "
        "2+K in their crib makes fifteen with any 3.",
        "Yours: 2+3 in their crib makes fifteen with any ten-card; "
        "2-3 in their crib makes a run with an ace or a 4.",
    )
    assert dealer.lines()[2] == (
        "Why: 7+8 is a fifteen and 7-8-9 a run before the cut; 2+3 in your own crib makes "
        "fifteen with any ten-card; 2-3 in your own crib makes a run with an ace or a 4."
    )


def test_a_double_run_and_fifteens_are_said_as_players_count_them() -> None:
    dealt = tuple(parse_cards("5H 5S 6D JC 4C KS"))
    review = review_discard(dealt, parse_cards("5H 5S 6D 4C"), dealer=True)
    assert review.reasons_text(review.why_best()).startswith(
        "4+5+6 is two fifteens and 4-5-5-6 a double run before the cut")


def test_many_deals_each_keep() -> None:
    """Every keep of 20 seeded deals (300 keeps): the loss is 0 exactly for the keeps worth
    the best."""
    rng = random.Random(25)
    for _ in range(20):
        dealt = tuple(rng.sample(DECK, 6))
        dealer = rng.random() < 0.5
        options = advise(dealt, dealer=dealer)
        for option in options:
            review: DiscardReview = review_discard(dealt, option.keep, dealer=dealer)
            assert review.loss == options[0].net - option.net >= 0
            assert review.followed == (option.net == options[0].net)


def test_kept_cards_not_from_the_deal_are_refused() -> None:
    dealt = tuple(parse_cards("5H 5S 6D JC 4C KS"))
    with pytest.raises(InvalidCardError, match=r"the kept cards '5H 5S 6D 9C' are not 4"):
        review_discard(dealt, parse_cards("5H 5S 6D 9C"), dealer=True)


@settings(max_examples=60, deadline=None)
@given(deals, st.booleans(), st.integers(0, 14), st.integers(0, 45))
def test_the_device_pages_never_say_could_have_and_name_a_loss_only_when_there_is_one(
    dealt_list: list[Card], dealer: bool, which: int, starter_pick: int
) -> None:
    """The review's pages on the device: a zero loss is "Right discard" (never a page of what
    could have been); a loss is named on the first page with the advice's first keep."""
    from pegboard.coach.review import points_text, screen_pages

    dealt = tuple(dealt_list)
    kept = list(combinations(dealt, 4))[which]
    starter = unseen(dealt)[starter_pick]
    review = review_discard(dealt, kept, dealer=dealer, starter=starter)
    pages = screen_pages(review)
    text = " ".join(" ".join((title, *lines)) for title, lines in pages).lower()
    assert "could have" not in text
    assert all(len(line) <= 21 for _, lines in pages for line in lines)
    if review.loss == 0:
        assert pages[0][0] == "Right discard" and " lost" not in text
    else:
        first = advise(dealt, dealer=dealer)[0]
        assert pages[0][0] == f"Discard: {points_text(review.loss)} lost"
        assert pages[0][1][2] == "best " + " ".join(c.pretty for c in first.keep)
