"""The statistics as ``pegboard stats`` prints them."""

from __future__ import annotations

from pegboard.stats.values import GameSummary, Statistics


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def format_text(stats: Statistics, *, game: int | None = None) -> str:
    """The statistics as ``pegboard stats`` prints them (with ``game``, only its race)."""
    out = head_lines(stats)
    if stats.games:
        out.append("")
        out.append(RACE_TITLE)
        out.extend(race_line(g) for g in stats.games if game is None or g.number == game)
    out.extend(f"note: {note}" for note in stats.notes)
    return "\n".join(out) + "\n"


RACE_TITLE = "Score race (end of each deal):"


def race_line(g: GameSummary) -> str:
    """One game's line of the score race, ``  game 3: Ann 0 7 19 ... | Ben 0 12 ...``."""
    state = "" if g.finished else " (unfinished)"
    return f"  game {g.number}{state}: " + " | ".join(
        f"{name} " + " ".join(str(v) for v in g.race.series(side))
        for side, name in enumerate(g.names)
    )


def head_lines(stats: Statistics) -> list[str]:
    """The lines of ``pegboard stats`` before the score race: games, first dealer, sides."""
    out: list[str] = []
    finished = stats.finished
    if finished is None:
        finished = sum(1 for g in stats.games if g.finished)
    out.append(f"Games: {finished} finished")
    rate = stats.first_dealer_win_rate
    if rate is not None:
        out.append(
            f"First dealer won {stats.first_dealer_wins} of {stats.first_dealer_games} "
            f"({rate:.0%})"
        )
    for s in stats.sides:
        t = s.tally
        out.append("")
        out.append(s.name)
        out.append(f"  games {s.games}, wins {s.wins}")
        out.append(
            f"  skunks given {s.given.every} (double {s.given.double}), "
            f"taken {s.taken.every} (double {s.taken.double})"
        )
        out.append(
            f"  average hand {_number(t.hands.average)} ({_plural(t.hands.times, 'hand')}), "
            f"crib {_number(t.cribs.average)} ({_plural(t.cribs.times, 'crib')}), "
            f"pegging {_number(t.pegging.average)} ({_plural(t.pegging.times, 'deal')})"
        )
        if t.best_hand is not None:
            b = t.best_hand
            # A card entered by its rank alone is printed by its rank: no suit was entered.
            cards = " ".join(c.short for c in b.cards)
            starter = f" with {b.starter.short}" if b.starter else ""
            out.append(f"  best hand {b.points}: {cards}{starter} (game {b.game})")
    return out


LEARNING_TITLE = "Learning (discards by expected value, counting, pegging):"


def learning_lines(stats: Statistics) -> list[str]:
    """What the games taught, per player or partnership: the points given up on average per
    discard reviewed (where the dealt cards were entered), and per game the points missed
    counting (muggins claims) and given up pegging, so a learner sees progress. None when
    the games taught nothing (no discard reviewed, no count missed, no play judged)."""
    lines = []
    for s in stats.sides:
        t = s.tally
        if not (t.discards or t.missed or t.pegging_loss):
            continue
        loss = s.average_discard_loss
        average = (f"{loss:.1f} given up on average ({t.discards} reviewed)"
                   if loss is not None else "no dealt cards entered")
        lines.append(f"  {s.name}: discards {average}; a game: {s.missed_a_game or 0:.1f} "
                     f"missed counting, {s.pegging_loss_a_game or 0:.1f} given up pegging")
    return [LEARNING_TITLE, *lines] if lines else []
