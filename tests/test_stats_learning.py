"""``pegboard stats`` on the store shows what the games taught (discard loss, points missed
and given up a game), as ``pegboard review`` works it out, for a store written today and for
one an earlier release wrote (its index and finish lines made again)."""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from pegboard import record
from pegboard.cli import main
from pegboard.coach.lessons import lessons
from pegboard.coach.review import points_text
from pegboard.record.reader import read_game
from pegboard.store import StoreReader
from tests.support.games import random_game
from tests.support.web import record_game

TITLE = "Learning (discards by expected value, counting, pegging):"
OLD_STORE = Path(__file__).resolve().parent / "data" / "written-by-0.1.0" / "store"


def expected(stores_games: list[list[str]]) -> list[str]:
    """The learning lines worked out from each finished game's record by the one lessons
    function, per player or partnership (in the order they first appear)."""
    totals: dict[str, list[Fraction]] = {}
    for lines in stores_games:
        game = read_game(lines, "test")
        found = lessons(game)
        seats = range(len(found.names))
        sides = {side: " & ".join(found.names[s] for s in seats if game.side_of(s) == side)
                 for side in map(game.side_of, seats)}
        for name in sides.values():
            totals.setdefault(name, [Fraction(0)] * 5)[0] += found.games
        for who in found.players:
            row = totals[sides[game.side_of(who.player)]]
            counted: tuple[int | Fraction, ...] = (who.discards, who.discard_loss,
                                                    who.counting.missed, who.pegging_loss)
            for at, value in enumerate(counted, start=1):
                row[at] += value
    out = []
    for name, (games, discards, loss, missed, pegging) in totals.items():
        if not (discards or missed or pegging):
            continue
        average = (f"{points_text(loss / discards)} given up on average ({discards} reviewed)"
                   if discards else "no dealt cards entered")
        out.append(f"  {name}: discards {average}; a game: {points_text(missed / games)} "
                   f"missed counting, {points_text(pegging / games)} given up pegging")
    return out


def learned(capsys: pytest.CaptureFixture[str], store: Path) -> list[str]:
    assert main(["stats", "--store", str(store)]) == 0
    out = capsys.readouterr().out
    assert TITLE in out, out
    return out.split(TITLE + "\n")[1].splitlines()


def test_stats_of_the_store_show_what_its_games_taught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = random_game(3, dealt=True, muggins=True)
    lines = [record.dump_line(made.header), *(record.dump_line(e) for e in made.events)]
    record_game(tmp_path / "store", lines)
    shown = learned(capsys, tmp_path / "store")
    assert shown == expected([lines])
    assert "no dealt cards entered" not in "\n".join(shown)
    assert learned(capsys, tmp_path / "store") == shown  # read back from the index


def test_an_earlier_release_s_store_counts_what_its_games_taught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "store"
    shutil.copytree(OLD_STORE, store)
    games = [[str(line) for line in game.lines] for game in StoreReader(store).history()
             if game.result.get("abandoned") is not True]
    assert games
    assert learned(capsys, store) == expected(games)


def test_each_game_of_a_match_keeps_its_own_lessons() -> None:
    """A match's record: each game's figures are its own, and they add up to the whole."""
    from pegboard.stats import replay_record

    path = Path(__file__).resolve().parent / "data" / "stats_match.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    found = lessons(read_game(lines, "match"))
    assert found.games == len(found.per_game) == 2
    for seat, whole in enumerate(found.players):
        games = [per[seat] for per in found.per_game]
        assert whole.plays == sum(g.plays for g in games) > 0
        assert whole.pegging_loss == sum(g.pegging_loss for g in games)
        assert all(g.plays for g in games)  # both games were played card by card
    summaries = replay_record(lines, source="match")
    for summary, per in zip(summaries, found.per_game, strict=True):
        assert [t.pegging_loss for t in summary.tallies] == [
            round(1000 * who.pegging_loss) for who in per]
