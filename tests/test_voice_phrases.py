"""The words of every announcement kind, pinned as text, from the engine's own awards."""

from __future__ import annotations

import pytest

from pegboard.app.view import PickerView, Screen, SideView, View
from pegboard.rules.cards import Card, Rank, parse_cards
from pegboard.rules.facts import GameOver, PenaltyApplied
from pegboard.rules.penalties import infraction
from pegboard.rules.show import score_hand
from pegboard.rules.state import Award, Reason, Skunk
from pegboard.voice.phrases import (
    ENGLISH,
    PHRASES,
    TERSE_ENGLISH,
    award_phrase,
    claim_phrase,
    coach_phrase,
    laid_phrase,
    no_score_phrase,
    phrases_for,
    play_phrase,
    play_words,
    read_view,
    result_phrase,
    short_count_words,
    show_phrase,
    speakable,
)
from tests.support.games import scripted_game

NAMES = ("Ann", "Ben")


def awards(script: str, **rules: object) -> list[Award]:
    return scripted_game(2, script, **rules)[1]


@pytest.mark.parametrize(("script", "count", "said"), [
    ("deal 0; starter KS; play 1 7C 0 8D", 15, "Ann: fifteen for two"),
    ("deal 0; starter KS; play 1 TC 0 JD 1 QC 0 AH", 31, "Ann: thirty-one for two"),
    ("deal 0; starter KS; play 1 6C 0 6D", 12, "Ann: twelve for two, a pair"),
    ("deal 0; starter KS; play 1 6C 0 6D 1 6H", 18, "Ben: eighteen for six, pair royal"),
    ("deal 0; starter KS; play 1 6C 0 6D 1 6H 0 6S", 24,
     "Ann: twenty-four for twelve, double pair royal"),
    ("deal 0; starter KS; play 1 9C 0 7D 1 8H", 24, "Ben: twenty-four for three, a run"),
    ("deal 0; starter KS; play 1 5C 0 5H 1 5D", 15, "Ben: fifteen for eight, and pair royal"),
    ("deal 0; starter KS; play 1 4C 0 5H 1 6D", 15, "Ben: fifteen for five, and a run"),
])
def test_a_card_that_scores_in_the_play_says_count_points_and_what(
        script: str, count: int, said: str) -> None:
    made = awards(script)
    last_player = made[-1].player
    mine = [a for a in made if a.player == last_player][-2:] if "and" in said else made[-1:]
    assert play_phrase(mine, count, NAMES[last_player]) == said


def test_the_go_and_last_card() -> None:
    go = Award(1, 1, 1, Reason.GO, "")
    last = Award(0, 0, 1, Reason.LAST_CARD, "")
    pair = Award(0, 0, 2, Reason.PAIR, "")
    assert play_phrase([go], 27, "Ben") == "Ben: one for the go"
    assert play_phrase([last], 22, "Ann") == "Ann: one for last card"
    assert play_phrase([pair, last], 4, "Ann") == "Ann: four for two, a pair, and one for last card"


def test_his_heels() -> None:
    (heels,) = awards("deal 0; starter JH")
    assert award_phrase(heels, "Ann", NAMES) == "Ann: his heels for two"


@pytest.mark.parametrize(("hand", "starter", "crib", "said"), [
    ("7H 8C 8D 2S", "KC", False, "Ann: fifteen two, fifteen four, and a pair is six"),
    ("5H 5C 5D JH", "5S", False,
     "Ann: fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen "
     "twelve, fifteen fourteen, fifteen sixteen, and double pair royal is twenty-eight"),
    ("5C 5D 5H JS", "5S", False,
     "Ann: fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen "
     "twelve, fifteen fourteen, fifteen sixteen, double pair royal is twenty-eight, and his "
     "nob is twenty-nine"),
    ("7H 8C 8D 9S", "KC", False,
     "Ann: fifteen two, fifteen four, and a double run is twelve"),
    ("2H 4H 6H 8H", "KC", False, "Ann: a flush of four is four"),
    ("2C 4D 6H 8S", "KC", True, "Ann's crib: nineteen"),
    ("5H TC 9D 6S", "2C", False, "Ann: fifteen two, fifteen four"),
])
def test_a_show_count_in_show_order_with_the_owner(
        hand: str, starter: str, crib: bool, said: str) -> None:
    breakdown = score_hand(parse_cards(hand), Card.parse(starter), crib=crib)
    assert show_phrase(breakdown.items, "Ann", crib=crib) == said


def test_the_engine_show_award_is_said_as_counted() -> None:
    made = awards("deal 0; starter 5S; show 1 5C 5D 5H JS")
    (hand,) = [a for a in made if a.reason == "hand"]
    assert award_phrase(hand, "Ben", NAMES).endswith("and his nob is twenty-nine")


def test_pegging_by_points_and_three_for_last() -> None:
    (peg,) = awards("deal 0; starter 2S; peg 0 10")
    assert award_phrase(peg, "Ann", NAMES) == "Ann pegs ten"
    assert award_phrase(Award(1, 1, 3, Reason.THREE_FOR_LAST, ""), "Ben", NAMES) == (
        "Ben: three for last")


def test_penalties_given_and_pegged_back_are_said_from_the_engines_fact() -> None:
    game, (given,) = scripted_game(2, "deal 0; penalty 0 looking")
    report = game.report
    assert report is not None and report.penalty is not None
    assert award_phrase(given, "Ben", NAMES, penalty=report.penalty) == (
        "Penalty. Ann: looking at a card while dealing or cutting, two to Ben")
    # The words are the fact's: the award's own sentence is never read for them.
    back = Award(0, 0, -2, Reason.PENALTY, "text no output reads")
    over = PenaltyApplied(0, infraction("over-pegging"), None, 0, 2)
    assert award_phrase(back, "Ann", NAMES, penalty=over) == (
        "Penalty. Ann: over-pegging, two back")


def test_muggins_and_claims() -> None:
    made = awards("deal 0; starter 5S; show 1 5C 5D 5H JS; claim 1 20; muggins 0 9",
                  muggins=True)
    claimed, taken = made[-2], made[-1]
    assert award_phrase(claimed, "Ben", NAMES) == "Ben: twenty, as claimed"
    assert award_phrase(taken, "Ann", NAMES) == "Muggins! Ann takes nine"
    assert claim_phrase(Award(0, 0, 5, Reason.THIRTY_ONE, ""), "Ann") == "Ann claims five"


def test_a_renege_take_back() -> None:
    back = Award(0, 0, 7, Reason.RENEGE_TAKE_BACK, "")
    assert award_phrase(back, "Ann", NAMES) == "Ann loses seven, taken back after the renege"


def over(winner: int, shown: tuple[int, int], skunk: Skunk, points: tuple[int, int],
         scores: tuple[int, int] | None = None) -> GameOver:
    spread = shown[winner] - shown[1 - winner]
    return GameOver(1, winner, scores or shown, shown, spread, skunk, points)


@pytest.mark.parametrize(("result", "said"), [
    (over(0, (121, 85), Skunk.SKUNK, (3, 0)),
     "Ann wins, one hundred and twenty-one to eighty-five. A skunk: three game points."),
    (over(1, (59, 121), Skunk.DOUBLE, (0, 4)),
     "Ben wins, one hundred and twenty-one to fifty-nine. A double skunk: four game points."),
    (over(0, (121, 110), Skunk.NONE, (2, 0)),
     "Ann wins, one hundred and twenty-one to one hundred and ten. Two game points."),
    (over(1, (40, 61), Skunk.NONE, (0, 1)), "Ben wins, sixty-one to forty. One game point."),
    # pegged out past the target: said as the board shows it, at the target
    (over(0, (121, 100), Skunk.NONE, (2, 0), scores=(127, 100)),
     "Ann wins, one hundred and twenty-one to one hundred. Two game points."),
])
def test_the_winner_with_skunk_and_game_points(result: GameOver, said: str) -> None:
    assert result_phrase(result, NAMES) == said


def test_a_teaching_near_miss() -> None:
    assert no_score_phrase("16, no score", "no run: 4-5-7 needs a six to be a run") == (
        "16, no score. No run: 4-5-7 needs a six to be a run")


def test_the_screen_read_aloud() -> None:
    view = View(Screen.PLAY, "Play", sides=(SideView("Ann", 45), SideView("Ben", 38)),
                count=24, award="Ben: Run of 3 for 3",
                picker=PickerView("Ann plays", ("A", "5", "J♥"), 2))
    assert read_view(view) == (
        "Play. Ann 45, Ben 38. count 24. Ben: Run of 3 for 3. Ann plays: jack of hearts")
    menu = View(Screen.MENU, "Menu", ("Back", "Say it again", "Undo last entry"), 1)
    assert read_view(menu) == "Menu. Back. Say it again, chosen. Undo last entry"


def test_the_phrase_table_names_its_languages() -> None:
    assert set(PHRASES) == {"en"}
    with pytest.raises(KeyError, match="no phrases for language 'xx'; there are: en"):
        phrases_for("xx")


def test_the_announcer_says_a_near_miss_once_and_a_hand_with_its_entry() -> None:
    from pegboard.app.effects import Changes
    from pegboard.app.state import Page, Reading
    from pegboard.app.view import PageKind
    from pegboard.rules.value import replace
    from pegboard.voice.acts import Importance
    from tests.support.announcing import added, announcer_after
    from tests.support.games import parse_script

    announcer, state, entered = announcer_after(("Ann", "Ben"), "deal 0; starter KS; play 1 4C")
    session = state.session
    assert session is not None
    near = Page("16, no score", ("no run: 4-5-7 needs a six to be a run",),
                kind=PageKind.NO_SCORE)
    state = replace(state, screen=Reading((near,)))
    heard = announcer.heard(state, entered)
    assert [(a.text, a.importance, a.entry) for a in heard.said] == [
        ("16, no score. No run: 4-5-7 needs a six to be a run", Importance.TEACHING, 3)]
    assert announcer.heard(state).said == ()  # the same page is not said twice
    session, report = session.apply(parse_script("play 0 5H")[0])
    heard = announcer.heard(replace(state, session=session), added(report))
    assert [a.text for a in heard.said] == []  # 4 then 5: nothing scored
    session = session.undo()
    undone = announcer.heard(replace(state, session=session), Changes(withdrawn=(report,)))
    assert undone.undone == 3


def test_the_article_a_is_not_read_as_an_ace_but_the_card_a_is() -> None:
    assert speakable("A race to 121. Each player gets 6 cards") == (
        "A race to 121. Each player gets 6 cards")
    assert coach_phrase(("A pair is two, a run of three", "is three")) == (
        "A pair is two, a run of three is three")
    assert speakable("A flush of four is four") == "A flush of four is four"
    # the card: alone, with its suit, in a run, on the wheel with its suit fact
    assert speakable("Starter: A") == "Starter: ace"
    assert speakable("A♠ J♣") == "ace of spades jack of clubs"
    assert speakable("A-2-3") == "ace-2-3"
    assert speakable("A flush") == "ace flush"
    assert speakable("A flush 4") == "ace flush 4"


def test_the_terse_style_says_a_count_by_its_total() -> None:
    terse = phrases_for("en", terse=True)
    hand = score_hand(parse_cards("5H 5S JD QC"), Card.parse("6C"))
    assert show_phrase(hand.items, "Ann", p=terse) == "Ann: " + terse.number(hand.total)
    assert show_phrase(hand.items, "Ann").startswith("Ann: fifteen two, ")
    nothing = score_hand(parse_cards("2H 4S 8D QC"), Card.parse("KC"), crib=True)
    assert show_phrase(nothing.items, "Ben", crib=True, p=terse) == "Ben's crib: nineteen"


@pytest.mark.parametrize(("hand", "starter", "said"), [
    ("5H 5S 5C JD", "5D", "twenty-nine, fifteens, double pair royal, and his nob"),
    ("4H 5S 6C 6D", "KD", "fourteen, fifteens and a double run"),
    ("7H 8S 9C QD", "AH", "five, a fifteen and a run"),
    ("4H 6H 8H 10H", "KC", "four, a flush"),
    ("2H 2S 9C 9D", "KC", "four, two pairs"),
    ("2H 4S 8D QC", "KC", "nineteen"),
])
def test_a_counts_short_form_is_its_total_and_the_names_of_what_made_it(
        hand: str, starter: str, said: str) -> None:
    items = score_hand(parse_cards(hand), Card.parse(starter)).items
    assert short_count_words(items) == said
    assert short_count_words(items, phrases_for("en", terse=True)) == ""  # terse: shorter


def test_the_terse_style_says_a_go_and_the_last_card_in_fewer_words() -> None:
    """"One for last" and "one for go", as players say them, where the full style says "and
    one for last card" and "one for the go"."""
    last = [(Reason.LAST_CARD, 1)]
    assert laid_phrase("Ann", Rank.QUEEN, last, 30, TERSE_ENGLISH) == (
        "Ann, queen: thirty, one for last")
    assert laid_phrase("Ann", Rank.QUEEN, last, 30, ENGLISH) == (
        "Ann, queen: thirty, and one for last card")
    assert play_words([(Reason.GO, 1)], 25, TERSE_ENGLISH) == "one for go"
