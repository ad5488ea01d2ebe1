"""A starter named by a hold, the other cards entered by rank: no output states a suit that was
not entered.

Ann entered her six dealt cards with their suits (for discard advice), so the starter's suit
could make her his nobs and the wheel lets the table name it: the 4 is held to 4♥. Every other
card of the deal comes off the card wheel by its rank (Ben's two 8s, his 7 and 9), their suits
the wheel's. The record says so (``by_rank``), and the count pages, the game's review and the
spoken replay name those cards by rank, while the starter, Ann's jack and her other named cards
keep the suits entered. The counts are exact all the same (Ann's his nobs with 4♥). A record
written by the command line (cards entered whole, no ``by_rank``) reads as before.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from pegboard.app.machine import initial_state
from pegboard.cli import main
from pegboard.coach.lessons import lessons
from pegboard.commands.replay import replay
from pegboard.config import Config
from pegboard.rules.cards import Card, EnteredCard, Rank
from pegboard.rules.state import Reason
from pegboard.stats import replay_record
from pegboard.stats.kept import summary_from_json, summary_json
from tests.support.app_driver import App
from tests.support.rulings_records import entry, event, game_of, go, header, play
from tests.test_app_offer_restart import enter

DEALT = entry("dealt", player=0, cards=["JH", "KD", "QH", "9D", "5C", "2C"])
PLAYS = [play(1, "8C"), play(0, "KD"), play(1, "8S"), go(0), go(1), play(0, "JH"),
         play(1, "7C"), play(0, "QH"), go(1), go(0), play(1, "9S"), play(0, "9D")]
BY_RANK = ("8♣", "8♠", "7♣", "9♠")
"""Ben's cards, with the suits the wheel gave them: never to be shown."""
SUIT = re.compile("[♣♦♥♠]")


BEFORE = [header(), entry("deal", dealer=0), DEALT]


def counted() -> App:
    app = App(initial_state(Config(), resume=BEFORE))
    app.read()
    app.pick("4♥")  # held to its suit
    for line in PLAYS:
        if app.pages:
            app.read()
        enter(app, event(line))
    return app


def test_the_starter_named_by_a_hold_is_recorded_with_the_deal_entered_by_rank() -> None:
    app = counted()
    starter = next(json.loads(line) for line in app.record if '"starter"' in line)
    assert starter == {"type": "starter", "card": "4H", "by_rank": True}
    gs = app.game
    assert gs.suit_entered(Card.parse("4H")) and gs.suit_entered(Card.parse("JH"))
    assert not any(gs.suit_entered(Card.parse(c)) for c in ("8C", "8S", "7C", "9S"))


def test_the_count_pages_name_the_cards_entered_by_rank_by_their_ranks() -> None:
    app = counted()
    pages = {page.title: page.lines for page in app.pages}
    ben = pages["Ben's hand: 12"]  # two fifteens, a double run
    assert "  (7 8 8 9)" in ben and not any(SUIT.search(line) for line in ben), ben
    assert "his nob is 4" in pages["Ann's hand: 4"]  # J♥ with 4♥: counted exactly
    hands = {a.player: a.points for a in app.game.awards if a.reason is Reason.HAND}
    assert hands == {1: 12, 0: 4}


def test_the_review_names_them_by_rank() -> None:
    app = counted()
    assert app.state.session is not None
    found = lessons(app.state.session.game)
    pegging = [m for m in found.mistakes if m.kind == "pegging"]
    assert pegging, found.mistakes
    for mistake in pegging:
        text = f"{mistake.did} {mistake.better}"
        assert not any(card in text for card in BY_RANK), text
    assert any("K♦" in m.did for m in pegging)  # Ann's king was named when dealt


def test_the_spoken_replay_names_them_by_rank() -> None:
    app = counted()
    out = io.StringIO()
    replay([*BEFORE, *app.record], out)
    text = out.getvalue()
    assert "4♥" in text
    for card in BY_RANK:
        assert card not in text, (card, text)


def test_a_record_entered_whole_still_shows_every_suit() -> None:
    """The command line's record: the starter named and no ``by_rank``, every card whole."""
    gs = game_of([header(), entry("deal", dealer=0), DEALT, entry("starter", card="4H"),
                  *PLAYS]).state
    assert gs.cards_whole and gs.suit_entered(Card.parse("8C"))


def test_the_statistics_best_hand_prints_them_by_rank(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Ben's 12 is his side's best hand: ``pegboard stats`` prints his cards by their ranks
    (entered so), the starter with the suit held to; the JSON keeps the same, and the store's
    index reads it back as entered."""
    app = counted()
    # The crib (Ann's 5 and 2 with two cards nobody saw), then a deal pegged by points to
    # Ben's win: a finished game.
    lines = [*BEFORE, *app.record, entry("crib", cards=["5C", "2C", "3D", "6D"]),
             entry("deal"), entry("peg", player=1, points=121 - app.game.scores[1])]
    game_of(lines)  # the engine takes every line
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["stats", "--record", str(path)]) == 0
    text = capsys.readouterr().out
    assert "best hand 12: 8 8 7 9 with 4♥ (game 1)" in text, text
    for card in BY_RANK:
        assert card not in text, (card, text)
    assert main(["stats", "--record", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    ben = next(p for p in data["players"] if p["name"] == "Ben")
    assert ben["best_hand"]["cards"] == ["8", "8", "7", "9"]
    assert ben["best_hand"]["starter"] == "4H"
    ann = next(p for p in data["players"] if p["name"] == "Ann")
    assert sorted(ann["best_hand"]["cards"]) == ["9D", "JH", "KD", "QH"]  # dealt by name
    summary = replay_record(lines)[0]
    kept = summary_from_json(json.loads(json.dumps(summary_json(summary))), number=1,
                             source="x")
    assert kept.tallies == summary.tallies
    best = kept.tallies[1].best_hand
    assert best is not None and best.cards == tuple(
        EnteredCard(Rank(r), None) for r in (8, 8, 7, 9))


def test_the_review_names_a_card_of_a_hand_never_counted_as_it_was_entered() -> None:
    """Ben, pone on 110, wins with his hand's count, so Ann's hand is never counted: the
    review of Ben's 8 laid on her king names the king as it was entered, with its suit in a
    record entered whole (the command line), by its rank when the deal went in by rank."""
    before = [header(), entry("deal", dealer=0), entry("peg", player=1, points=110),
              entry("deal"), entry("peg", player=0, points=1), entry("deal")]
    for starter, said in ((entry("starter", card="4H"), "laid 8♠ on 8♣ K♦"),
                          (entry("starter", card="4H", by_rank=True), "laid 8 on 8 K")):
        game = game_of([*before, starter, *PLAYS])
        assert game.state.winner == 1 and game.state.awards[-1].reason is Reason.HAND
        assert [m.did for m in lessons(game).mistakes if m.kind == "pegging"] == [said]


OLD_STARTER = '{"type": "starter", "card": "4H"}'
"""The starter as the device wrote it before ``by_rank`` (a version-7 record): named by a hold,
the deal's other cards entered by rank with the card wheel's suits, and nothing saying so."""


def test_an_old_record_shows_only_the_suits_it_can_vouch_for_and_keeps_its_scores() -> None:
    """Before version 8 a named starter without ``by_rank`` cannot say whether the deal's
    other cards were entered whole (the command line) or by rank (the device then): only the
    dealt hands and the starter are shown with their suits; every count is as it was."""
    old = [header(version=7), entry("deal", dealer=0), DEALT, OLD_STARTER, *PLAYS]
    now = [header(), entry("deal", dealer=0), DEALT, OLD_STARTER, *PLAYS]  # entered whole
    gs, whole = game_of(old).state, game_of(now).state
    assert gs.scores == whole.scores  # the same counts, item by item
    assert [(a.player, a.points, a.reason, a.items) for a in gs.awards] == [
        (a.player, a.points, a.reason, a.items) for a in whole.awards]
    ben = next(a for a in gs.awards if a.reason is Reason.HAND and a.player == 1)
    assert "7? 8? 8? 9?" in ben.sentence  # said by rank, as entered
    assert not gs.cards_whole and whole.cards_whole
    assert gs.suit_entered(Card.parse("4H")) and gs.suit_entered(Card.parse("JH"))
    assert not any(gs.suit_entered(Card.parse(c)) for c in ("8C", "8S", "7C", "9S"))
    out = io.StringIO()
    replay(old, out)
    text = out.getvalue()
    assert "4♥" in text and "J♥" in text
    for card in BY_RANK:
        assert card not in text, (card, text)
    for mistake in lessons(game_of(old)).mistakes:
        assert not any(card in f"{mistake.did} {mistake.better}" for card in BY_RANK)


def test_a_starter_before_version_4_is_shown_by_its_rank() -> None:
    """Before version 4 the device wrote its card wheel's suit for a starter entered by rank,
    unmarked: such a starter is shown by its rank alone, and counts as it did."""
    old = [header(version=3), entry("deal", dealer=0), DEALT, OLD_STARTER, *PLAYS]
    gs = game_of(old).state
    assert gs.turned is not None and gs.turned.suit is None
    assert not gs.suit_entered(Card.parse("4H")) and gs.suit_entered(Card.parse("JH"))
    hands = {a.player: a.points for a in gs.awards if a.reason is Reason.HAND}
    assert hands == {1: 12, 0: 4}  # Ann's his nobs with the 4 of hearts, as recorded
    out = io.StringIO()
    replay(old, out)
    assert "4♥" not in out.getvalue() and "  Starter 4 " in out.getvalue()
