"""The record's fold (:mod:`pegboard.rules.fold`): the end of a deal as the engine's fact, and
one account that every output of a race, a tally, a show order or a lesson reads.

The last test plays recorded games (the records kept from 0.1.0, the statistics and referee
records, seeded random games of every kind) through the fold once and compares every consumer
with it: the app's race picture, the LAN page (live and finished), ``pegboard stats``, the
index's summaries and the review."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from pegboard.app.machine import initial_state, view
from pegboard.app.state import GameOverScreen
from pegboard.app.view import Screen
from pegboard.cli import main
from pegboard.coach.lessons import lessons
from pegboard.config import Config
from pegboard.record import read_game, write
from pegboard.rules.cards import Card
from pegboard.rules.events import Crib, Deal, GameHeader, Go, Penalty, Play, Starter
from pegboard.rules.facts import DealEnded, GameOver
from pegboard.rules.fold import REASON_ORDER, Fold, fold_reports
from pegboard.rules.game import Game
from pegboard.rules.state import PLAY_REASONS, Reason, Skunk
from pegboard.rules.value import replace
from pegboard.stats import replay_record, summary_from_json, summary_json
from pegboard.store.index import GameIndex
from pegboard.web.follow import Entry, Follower
from pegboard.web.games import summary as listed
from pegboard.web.snapshot import game_json, race_of
from tests.support.games import random_game
from tests.support.web import ScriptedGame, record_game

DATA = Path(__file__).resolve().parent / "data"


def _c(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(word) for word in text.split())


def _deal_of_two(game: Game, dealer: int) -> None:
    """One whole deal with both hands laid in the play and the crib counted."""
    pone = 1 - dealer
    for event in (Deal(dealer), Starter(Card.parse("2C")),
                  Play(pone, Card.parse("5H")), Play(dealer, Card.parse("5S")),
                  Play(pone, Card.parse("5D")), Play(dealer, Card.parse("KH")),
                  Go(pone), Go(dealer),
                  Play(pone, Card.parse("9C")), Play(dealer, Card.parse("AS")),
                  Play(pone, Card.parse("3C")), Play(dealer, Card.parse("7H")),
                  Crib(_c("4H 4S 8C 8D"))):
        game.push(event)


def test_the_end_of_a_deal_is_reported_by_the_next_deal() -> None:
    """A deal ends when the next one is dealt (a muggins claim may still peg for it after
    the crib): that ``deal`` entry's report opens with the deal before it, the board as it
    stood, the hands counted in show order, the crib and whether it was played."""
    game = Game(["Ann", "Ben"])
    _deal_of_two(game, 0)
    assert not any(isinstance(f, DealEnded) for r in game.reports() for f in r.facts)
    scores = game.state.scores
    report = game.push(Deal())
    ended = report.facts[0]
    assert ended == DealEnded(game_no=1, deal_no=1, dealer=0, scores=scores, counted=(1, 0),
                              crib=True, played=True)
    assert report.deal_ended == ended


def test_a_redeal_ends_no_deal_and_points_only_deals_end_too() -> None:
    """A misdeal's redeal is the same deal again: the deal after it ends one deal, once. A
    deal pegged by points ends with nothing counted and nothing played."""
    game = Game(["Ann", "Ben"])
    game.push(Deal(0))
    game.push(Penalty(0, "misdeal"))
    assert game.push(Deal()).deal_ended is None
    ended = game.push(Deal()).deal_ended
    assert ended is not None and (ended.deal_no, ended.counted, ended.crib, ended.played) == (
        1, (), False, False)


def test_the_game_ends_its_deal_with_the_winner_at_the_target() -> None:
    """The entry that ends the game reports its deal's end first, the board as shown: the
    winner at the target, as the game over shows it; the race never goes above it."""
    game = random_game(3, 2)
    played = Game.from_header(game.header)
    for event in game.events:
        report = played.push(event)
    kinds = [type(fact) for fact in report.facts]
    assert kinds[-2:] == [DealEnded, GameOver]
    over, ended = report.facts[-1], report.facts[-2]
    assert isinstance(over, GameOver) and isinstance(ended, DealEnded)
    assert ended.scores == over.shown and max(over.scores) > over.shown[over.winner] == 121
    race = fold_reports(played.header, played.reports()).game.race
    assert race.final == over.shown and max(max(row) for row in race.scores) == 121


def test_undone_entries_leave_the_stream() -> None:
    """The fold of a game's reports is the fold of the entries in force: an undone entry
    and its report are gone (one replay, one fold)."""
    game = Game(["Ann", "Ben"])
    _deal_of_two(game, 0)
    without = fold_reports(game.header, game.reports())
    game.push(Deal())
    game.push(Starter(Card.parse("JH")))  # his heels: 2 for the dealer
    game.pop()
    game.pop()
    assert fold_reports(game.header, game.reports()) == without


def test_a_fold_is_a_value() -> None:
    """Adding a report makes a new fold; the old one is unchanged."""
    game = Game(["Ann", "Ben"])
    start = Fold.start(game.header)
    later = start.add(game.push(Deal(0)))
    later = later.add(game.push(Starter(Card.parse("JH"))))
    assert start == Fold.start(game.header)
    assert later.game.pegged(0, Reason.HIS_HEELS) == 2 and later.game.open_deal
    assert later.game.race.scores == ((0, 0), (2, 0))


# --- every consumer against the fold ---------------------------------------------------------


def _random(seed: int, **kwargs: object) -> list[str]:
    played = random_game(seed, **kwargs)  # type: ignore[arg-type]
    text = io.StringIO()
    write(text, played.header, played.events)
    return text.getvalue().splitlines()


def _with_undos(lines: list[str]) -> list[str]:
    """The record with a few entries entered, undone and entered again."""
    out = lines[:1]
    for number, line in enumerate(lines[1:], 1):
        out.append(line)
        if number % 17 == 0:
            out += ['{"type": "undo"}', line]
    return out


def _records() -> list[tuple[str, list[str]]]:
    files = [*sorted((DATA / "written-by-0.1.0" / "records").glob("*.jsonl")),
             *sorted(DATA.glob("stats_*.jsonl")), *sorted((DATA / "referee_cases").glob("*.jsonl"))]
    found = [(path.name, path.read_text(encoding="utf-8").splitlines()) for path in files]
    found += [
        ("two players", _random(1)),
        ("three players", _random(2, players=3)),
        ("partners", _random(3, players=4)),
        ("muggins", _random(4, muggins=True, dealt=True)),
        ("five-card", _random(5, five_card=True)),
        ("points only", _random(6, mode="quick")),
        ("mixed", _random(7, mode="mixed")),
        ("reneges", _random(8, renege_rate=0.3)),
        ("undos", _with_undos(_random(9, dealt=True))),
    ]
    return found


RECORDS = _records()


@pytest.mark.parametrize(("name", "lines"), RECORDS, ids=[name for name, _ in RECORDS])
def test_every_consumer_reads_the_one_fold(name: str, lines: list[str], tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    lines = [line for line in lines if line.strip()]
    game = read_game(lines, name)
    fold = fold_reports(game.header, game.reports())
    last = fold.game
    header: GameHeader = game.header

    # The fold adds up: each side's points by reason are its score on the board.
    for side, row in enumerate(last.points):
        by_reason = dict(zip(REASON_ORDER, row, strict=True))
        assert sum(row) == game.state.scores[side], (side, by_reason)

    # pegboard stats (and its learning figures): one summary per game, from the fold.
    summaries = replay_record(lines, source=name)
    assert len(summaries) == len(fold.games)
    taught = lessons(fold)
    for summary, folded, players in zip(summaries, fold.games, taught.per_game, strict=True):
        assert summary.race == folded.race
        assert summary.finished == (folded.over is not None)
        assert summary.skunk is (folded.over.skunk if folded.over else Skunk.NONE)
        for side, tally in enumerate(summary.tallies):
            assert tally.hands.points == folded.pegged(side, Reason.HAND)
            assert tally.hands.times == folded.hands_counted(side)
            assert tally.cribs.points == folded.pegged(side, Reason.CRIB)
            assert tally.cribs.times == folded.cribs_counted(side)
            assert tally.pegging.points == folded.pegged(side, *PLAY_REASONS)
            assert tally.pegging.times == folded.deals_played
            best = folded.best[side]
            assert (tally.best_hand.points if tally.best_hand else None) == (
                best.points if best else None)
            who = [p for p in players if folded.sides_of[p.player] == side]
            assert tally.discards == sum(p.discards for p in who)
            assert tally.missed == sum(p.counting.missed for p in who)
        # The index keeps the same summary, read back the same.
        kept = summary_from_json(json.loads(json.dumps(summary_json(summary))),
                                 number=summary.number, source=summary.source)
        assert kept.race == folded.race and kept.tallies == summary.tallies

    # The review: the same lessons, from the game or from its fold.
    assert lessons(game) == taught

    # The app's race picture at the end of the game.
    if game.state.winner is not None:  # restored on its result, its score race shown
        restored = initial_state(Config(), resume=game)
        chart = view(replace(restored, screen=GameOverScreen(race_shown=True)))
        assert chart.screen is Screen.RACE and chart.race == last.race.scores

    # The LAN page, live: the race of the entries the follower read, in the page's JSON.
    entries = [Entry(number, report.event, report)
               for number, report in enumerate(game.reports(), 2)]
    assert race_of(header, entries) == last.race
    live = ScriptedGame(tmp_path / "live", lines)
    live.play_to(len(live.lines))
    follower = Follower(tmp_path / "live")
    follower.poll()
    page = game_json(follower)
    assert page is not None
    if game.state.result is not None and not game.state.held_counts:
        assert page["race"] == last.race.to_json()
    live.close()

    # The LAN page's finished games and `pegboard stats` over a store: the index's summaries.
    if game.state.winner is None:
        return
    record_game(tmp_path / "store", lines)
    with GameIndex(tmp_path / "store") as index:
        (indexed,) = list(index.games())
        assert [s.race for s in index.summaries(indexed, 1)] == [g.race for g in fold.games]
        assert listed(index, indexed)["race"] == last.race.to_json()
    capsys.readouterr()
    assert main(["stats", "--store", str(tmp_path / "store"), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [g["race"] for g in shown["games"]] == [
        [list(row) for row in g.race.scores] for g in fold.games]


def test_a_recorded_match_folds_game_by_game() -> None:
    """A match's games each get their own race, tallies and lessons."""
    lines = (DATA / "stats_match.jsonl").read_text(encoding="utf-8").splitlines()
    game = read_game([line for line in lines if line.strip()], "match")
    fold = fold_reports(game.header, game.reports())
    assert len(fold.games) >= 2
    assert [g.game_no for g in fold.games] == list(range(1, len(fold.games) + 1))
    for folded in fold.games[:-1]:
        assert folded.over is not None
        assert folded.race.scores[0] == (0,) * len(folded.names)

