"""One wording of a count everywhere: the command line, the screen and the voice render the
engine's count phrases, in the words players use; the voice's near-miss text reads cleanly."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pegboard.app.state import Count
from pegboard.app.words import cards_lines, count_lines
from pegboard.cli import main
from pegboard.coach.help_shape import LINE_WIDTH
from pegboard.coach.hints import explain_no_score
from pegboard.rules.cards import DECK, Card, parse_cards
from pegboard.rules.show import score_hand
from pegboard.rules.speech import Said, count_phrases, number, say_breakdown
from pegboard.voice.phrases import count_words, no_score_phrase

RULES_PAGE = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


@pytest.mark.parametrize(("hand", "starter", "said", "points"), [
    ("7H 8C 8D KS", "9S", Said.DOUBLE_RUN, 8),
    ("4H 5C 6D 6S", "7S", Said.DOUBLE_RUN, 10),
    ("4C 4D 4H 5S", "6C", Said.TRIPLE_RUN, 15),
    ("2C 2D 3H 4S", "3C", Said.DOUBLE_DOUBLE_RUN, 16),
])
def test_a_run_made_again_by_a_pair_is_said_with_its_pair(
    hand: str, starter: str, said: Said, points: int
) -> None:
    phrases = count_phrases(score_hand(parse_cards(hand), Card.parse(starter)))
    runs = [p for p in phrases if p.said is said]
    assert [p.points for p in runs] == [points]
    assert not [p for p in phrases if p.said in (Said.PAIR, Said.PAIR_ROYAL, Said.RUN)]


def test_the_phrases_add_up_to_the_count_on_random_hands() -> None:
    rng = random.Random(6)
    for _ in range(3000):
        cards = rng.sample(DECK, 5)
        count = score_hand(cards[:4], cards[4], crib=rng.random() < 0.3)
        phrases = count_phrases(count)
        assert sum(p.points for p in phrases) == count.total
        totals = [p.total for p in phrases]
        assert totals == sorted(totals) and (not totals or totals[-1] == count.total)
        # A double run is never said beside its own pair.
        run_ranks = {c.rank for p in phrases if p.said in (Said.DOUBLE_RUN, Said.TRIPLE_RUN,
                                                           Said.DOUBLE_DOUBLE_RUN)
                     for c in p.cards}
        assert not [p for p in phrases if p.said in (Said.PAIR, Said.ANOTHER_PAIR,
                                                     Said.PAIR_ROYAL)
                    and p.cards[0].rank in run_ranks]


@pytest.mark.parametrize(("hand", "starter", "cli", "screen", "voice"), [
    ("7H 8C 8D KS", "9S", "and a double run is 12", "double run is 12", "and a double run is "
     "twelve"),
    ("4C 4D 4H 5S", "6C", "and a triple run is 21", "triple run is 21", "and a triple run is "
     "twenty-one"),
    ("9C 9D JH QS", "KC", "A pair is 2, and a run of three is 5", "a pair is 2 (9♣ 9♦)",
     "a pair is two, and a run of three is five"),
])
def test_the_command_line_the_screen_and_the_voice_say_the_same_count(
    hand: str, starter: str, cli: str, screen: str, voice: str
) -> None:
    count = score_hand(parse_cards(hand), Card.parse(starter))
    assert cli in say_breakdown(count)
    entered = frozenset((*parse_cards(hand), Card.parse(starter)))  # every suit entered
    lines = count_lines(Count(0, False, tuple(parse_cards(hand)), count.items, entered=entered))
    assert any(line.startswith(screen) for line in lines), lines
    assert voice in count_words(count.items)
    # Each output ends on the same running totals, phrase by phrase.
    totals = [p.total for p in count_phrases(count)]
    assert [int(t) for t in re.findall(r"is (\d+)|fifteen (\d+)", say_breakdown(count), re.I)
            for t in t if t] == totals
    assert count_words(count.items).endswith(number(totals[-1]))


def test_the_screen_shows_suits_where_two_cards_share_a_rank() -> None:
    count = score_hand(parse_cards("5H 5S JC 2D"), Card.parse("KD"))
    entered = frozenset(parse_cards("5H 5S JC 2D KD"))
    lines = count_lines(Count(0, False, tuple(parse_cards("5H 5S JC 2D")), count.items,
                              entered=entered))
    assert lines[:2] == ("fifteen 2 (5♥ J)", "fifteen 4 (5♥ K)")
    # The cards line names each card whose suit was entered with it, as the line above does.
    assert "a pair is 10 (5♥ 5♠)" in lines and lines[-1] == "cards: 5♥ 5♠ J♣ 2♦"
    # Suits the card wheel chose (cards entered by rank) are never shown.
    lines = count_lines(Count(0, False, tuple(parse_cards("5H 5S JC 2D")), count.items))
    assert "a pair is 10 (5 5)" in lines and lines[-1] == "cards: 5 5 J 2"


def test_the_cards_line_names_a_suit_exactly_where_one_was_entered() -> None:
    """His nobs named on the wheel (the jack's suit entered), the rest entered by rank: the
    cards line shows the jack's suit and no other; four tens entered whole do not run off the
    screen's line, the last going on a line of its own."""
    hand = tuple(parse_cards("5H 6S JD 2C"))
    count = score_hand(hand, Card.parse("8D"))
    lines = count_lines(Count(0, False, hand, count.items,
                              entered=frozenset(parse_cards("JD 8D"))))
    assert lines[-1] == "cards: 5 6 J♦ 2", lines
    assert cards_lines(parse_cards("TH TD TC TS"), frozenset(parse_cards("TH TD TC TS"))) == (
        "cards: 10♥ 10♦ 10♣", "  10♠")
    assert all(len(line) < LINE_WIDTH for line in cards_lines(
        parse_cards("TH TD TC TS"), frozenset(parse_cards("TH TD TC TS"))))


def test_the_rules_page_says_a_double_run_of_three_is_8() -> None:
    text = " ".join(RULES_PAGE.read_text(encoding="utf-8").split())
    assert "a double run of three is 8" in text
    assert "double run of three is 6" not in text


def test_peg_gives_each_player_their_points_not_one_total(
    capsys: pytest.CaptureFixture[str]
) -> None:
    # 4 (leader), 5 (other), 6 makes 15 and a run (leader 5), 6 pairs it (other 2).
    assert main(["peg", "4S", "5H", "6D", "6C"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert not [line for line in out if line.startswith("Total")]
    assert out[-1] == ("Pegged, taking turns: the leader 5 (cards 1, 3), "
                       "the other player 2 (cards 2, 4)")


NEAR_MISSES = ["5C 6D 9H 7S", "5C 6D 6H 7S", "5C 7D 8H", "QC KD AH", "8C 7D 7H 6C"]


@pytest.mark.parametrize("pile", NEAR_MISSES)
def test_near_miss_text_has_no_symbols_a_voice_would_read_out(pile: str) -> None:
    why = explain_no_score(parse_cards(pile))
    assert why is not None
    assert not re.search(r"\d-|-\d|\?|-[A-Z]\b|\b[A-Z]-", why), why


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
@pytest.mark.parametrize("pile", NEAR_MISSES)
def test_espeak_reads_the_near_miss_without_a_dash(pile: str) -> None:
    why = explain_no_score(parse_cards(pile))
    assert why is not None
    phonemes = subprocess.run(["espeak-ng", "-q", "-x", no_score_phrase("16, no score", why)],
                              capture_output=True, text=True, check=True).stdout
    dash = subprocess.run(["espeak-ng", "-q", "-x", "dash"], capture_output=True, text=True,
                          check=True).stdout.strip()
    assert dash not in phonemes and "kw'EstS@n" not in phonemes, phonemes
