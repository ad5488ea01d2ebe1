"""The standings in ACC order, the pots' special hands, and the CSV exports.

ACC order: game points, then games won, then spread (all highest first); the member number
breaks a tie so the order is stable. A night's standings count that night's games, the
season's every night's. A player is flagged ``unknown`` when a roster is loaded and their
member number is not on it, and ``guest`` when the roster says so or a scorecard of theirs
does. A 9–0 night is a player
who won nine games and lost none that night.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from typing import Any

from pegboard.club.seating import Round
from pegboard.errors import ClubError

NINE_OH = 9
"""Games won without a loss that make the 9–0 night's pot."""


def _where(night: int | None, club: str | None, prefix: str = "l"
           ) -> tuple[str, list[object]]:
    clauses: list[str] = []
    values: list[object] = []
    if night is not None:
        clauses.append(f"{prefix}.night = ?")
        values.append(night)
    if club is not None:
        clauses.append(f"{prefix}.club = ?")
        values.append(club)
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", values


def standings(db: sqlite3.Connection, night: int | None = None, club: str | None = None
              ) -> list[dict[str, Any]]:
    """Every player's totals in ACC order (one night, or the season when ``night`` is None;
    one club, or every club of a league when ``club`` is None), a bye credited as the club
    said when it was counted (``byes``; results.credit_bye); ``adjusted``: how many of the
    player's games the director adjusted (:func:`adjusted` says how and why)."""
    where, values = _where(night, club)
    roster = db.execute("SELECT COUNT(*) FROM member").fetchone()[0] > 0
    rows = db.execute(
        "SELECT l.member, MAX(l.name) AS name, SUM(l.game_points) AS game_points, "
        "SUM(l.won) AS wins, SUM(1 - l.won) AS losses, SUM(l.spread) AS spread, "
        "COUNT(*) AS games, SUM(l.skunks_given) AS skunks_given, "
        "SUM(l.skunks_taken) AS skunks_taken, m.name AS roster_name, m.guest AS guest, "
        "SUM(r.adjusted != '') AS adjusted, "
        # a guest on any of their scorecards (the header's guests) is one here too
        "MAX(COALESCE(json_extract(r.payload, '$.players[' || l.seat || '].guest'), 0)) "
        "AS carded_guest FROM line l JOIN result r ON r.id = l.result "
        f"LEFT JOIN member m ON m.member = l.member{where} "
        "GROUP BY l.member",
        values).fetchall()
    special = _special_counts(db, night, club)
    players = {row["member"]: {
        "member": row["member"], "name": row["roster_name"] or row["name"],
        "game_points": row["game_points"], "wins": row["wins"], "losses": row["losses"],
        "spread": row["spread"], "games": row["games"], "byes": 0,
        "skunks_given": row["skunks_given"], "skunks_taken": row["skunks_taken"],
        "special_hands": special.get(row["member"], 0), "adjusted": row["adjusted"],
        "guest": bool(row["guest"] or row["carded_guest"]),
        "unknown": roster and row["roster_name"] is None} for row in rows}
    byes = _where(night, club, prefix="b")
    for row in db.execute(
            "SELECT b.member, COUNT(*) AS byes, SUM(b.game_points) AS game_points, "
            "SUM(b.wins) AS wins, m.name AS roster_name, m.guest AS guest FROM bye b "
            f"LEFT JOIN member m ON m.member = b.member{byes[0]} GROUP BY b.member", byes[1]):
        player = players.setdefault(row["member"], {
            "member": row["member"], "name": row["roster_name"] or f"P{row['member']}",
            "game_points": 0, "wins": 0, "losses": 0, "spread": 0, "games": 0, "byes": 0,
            "skunks_given": 0, "skunks_taken": 0, "adjusted": 0,
            "special_hands": special.get(row["member"], 0), "guest": bool(row["guest"]),
            "unknown": roster and row["roster_name"] is None})
        player["byes"] = row["byes"]
        player["game_points"] += row["game_points"]
        player["wins"] += row["wins"]
    ordered = sorted(players.values(), key=lambda p: (-p["game_points"], -p["wins"],
                                                      -p["spread"], p["member"]))
    return [{"rank": place, **player} for place, player in enumerate(ordered, start=1)]


def _special_counts(db: sqlite3.Connection, night: int | None, club: str | None
                    ) -> dict[str, int]:
    where, values = _where(night, club)
    return {row[0]: row[1] for row in db.execute(
        f"SELECT l.member, COUNT(*) FROM special l{where} GROUP BY l.member", values)}


def specials(db: sqlite3.Connection, night: int | None = None, club: str | None = None
             ) -> dict[str, Any]:
    """The pots: every special hand seen (24, 28, 29, four of a kind) and the 9–0 nights."""
    where, values = _where(night, club)
    hands = [dict(row) for row in db.execute(
        "SELECT l.night, l.member, l.name, l.hand, l.points, l.counted, l.cards, l.result "
        f"FROM special l{where} ORDER BY l.night, l.result, l.seat", values)]
    perfect = [dict(row) for row in db.execute(
        "SELECT l.club, l.night, l.member, MAX(l.name) AS name, SUM(l.won) AS wins "
        f"FROM line l{where} GROUP BY l.club, l.night, l.member "
        "HAVING SUM(l.won) >= ? AND SUM(1 - l.won) = 0 ORDER BY l.night, l.member",
        [*values, NINE_OH])]
    return {"hands": hands, "nine_oh": perfect}


def locks(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """Each night's tournament lock as its scorecards carry it: ``lock`` is ``"on"`` (every
    result under it), ``"off"`` or ``"mixed"``, with the results ``unlocked`` on a mixed
    night (a board whose config missed the night's lock: for the director), each named
    ``<board>:<game>`` as the board that sent it knows it."""
    found: dict[int, list[tuple[str, bool]]] = {}
    for row in db.execute("SELECT night, board || ':' || game, "
                          "COALESCE(json_extract(payload, '$.lock'), 0) "
                          "FROM result ORDER BY night, board, game"):
        found.setdefault(row[0], []).append((row[1], bool(row[2])))
    out = []
    for night, results in found.items():
        unlocked = [result for result, locked in results if not locked]
        lock = "off" if len(unlocked) == len(results) else "on" if not unlocked else "mixed"
        out.append({"night": night, "lock": lock,
                    "unlocked": unlocked if lock == "mixed" else []})
    return out


def rescored(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """The results counted by the club's game points rather than those the table played
    with (results.club_points): ``result`` (``<board>:<game>``), ``night``, ``round``,
    ``table`` and ``why``."""
    return [dict(row) for row in db.execute(
        "SELECT board || ':' || game AS result, night, round, tbl AS 'table', "
        "rescored AS why FROM result WHERE rescored != '' ORDER BY night, round, tbl")]


def adjusted(db: sqlite3.Connection, night: int | None = None, club: str | None = None
             ) -> list[dict[str, Any]]:
    """The results the director adjusted (results.act), by round and table: ``id``,
    ``night``, ``round``, ``table``, ``players`` (each seat's member and name, the roster's
    when it has one), ``said`` (the adjustment: the board as sent and as ruled, and what
    the rules make of it) and ``why`` (the director and the reason)."""
    where, values = _where(night, club, prefix="r")
    found = []
    for row in db.execute(
            "SELECT r.id, r.night, r.round, r.tbl, r.adjusted FROM result r"
            f"{where}{' AND' if where else ' WHERE'} r.adjusted != '' "
            "ORDER BY r.night, r.round, r.tbl, r.id", values):
        ruled = json.loads(row["adjusted"])
        players = [{"member": seat["member"], "name": seat["roster_name"] or seat["name"]}
                   for seat in db.execute(
                       "SELECT l.member, l.name, m.name AS roster_name FROM line l LEFT JOIN "
                       "member m ON m.member = l.member WHERE l.result = ? ORDER BY l.seat",
                       (row["id"],))]
        found.append({"id": row["id"], "night": row["night"], "round": row["round"],
                      "table": row["tbl"], "players": players, "said": ruled["said"],
                      "why": ruled["why"]})
    return found


def nights(db: sqlite3.Connection) -> list[int]:
    """The nights with results, in order."""
    return [row[0] for row in db.execute("SELECT DISTINCT night FROM result ORDER BY night")]


SCORECARD_COLUMNS = (
    "result", "club", "night", "round", "table", "board", "game", "seat", "member", "name",
    "won", "game_points", "spread", "score", "skunk", "special_hands", "guest", "lock",
    "rescored", "adjusted",
)


def scorecards_csv(db: sqlite3.Connection, night: int | None = None) -> str:
    """One row per player per game (the ACC scorecard, as a spreadsheet takes it; a game the
    director adjusted as adjusted, with the adjustment and who made it and why)."""
    where, values = _where(night, None)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(SCORECARD_COLUMNS)
    for row in db.execute(
            "SELECT l.*, r.board, r.game, r.payload, r.rescored, r.adjusted FROM line l "
            "JOIN result r "
            "ON r.id = "
            f"l.result{where} ORDER BY l.night, l.round, l.tbl, l.result, l.seat", values):
        card = json.loads(row["payload"])
        hands = [h["hand"] for h in card["special"] if h["seat"] == row["seat"]]
        adjusted = json.loads(row["adjusted"]) if row["adjusted"] else None
        writer.writerow([
            row["result"], row["club"], row["night"], row["round"], row["tbl"], row["board"],
            row["game"], row["seat"], row["member"], row["name"], row["won"],
            row["game_points"], row["spread"], row["score"],
            card["skunk"] if adjusted is None else adjusted["skunk"], " ".join(hands),
            int(bool(card["players"][row["seat"]].get("guest"))), int(bool(card.get("lock"))),
            row["rescored"],
            "" if adjusted is None else f"{adjusted['said']} ({adjusted['why']})",
        ])
    return out.getvalue()


AUDIT_COLUMNS = ("id", "revision", "club", "night", "board", "game", "lines", "received",
                 "status", "why")


def audit_csv(revisions: list[dict[str, Any]]) -> str:
    """The audit (results.audit): one row per revision, with what became of it and why
    (a director's act: who and the reason)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(AUDIT_COLUMNS)
    for row in revisions:
        writer.writerow([row[key] for key in AUDIT_COLUMNS])
    return out.getvalue()


ACT_COLUMNS = ("at", "director", "act", "id", "revision", "reason")


def acts_csv(acts: list[dict[str, Any]]) -> str:
    """The director's acts (results.acts), oldest first: one row per act (accept, void,
    adjust, seating), with who and the reason, each kept whatever a later act did to its
    revision (the audit shows a revision's last status only)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(ACT_COLUMNS)
    for row in acts:
        writer.writerow([row[key] for key in ACT_COLUMNS])
    return out.getvalue()


NIGHT_COLUMNS = (
    "rank", "member", "name", "game_points", "wins", "losses", "spread", "skunks_given",
    "skunks_taken", "special_hands", "guest", "unknown",
)


def night_csv(db: sqlite3.Connection, night: int | None) -> str:
    """The night summary: one row per player in ACC order."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(NIGHT_COLUMNS)
    for player in standings(db, night):
        writer.writerow([int(v) if isinstance(v, bool) else v
                         for v in (player[key] for key in NIGHT_COLUMNS)])
    return out.getvalue()


def next_round(db: sqlite3.Connection, seating: list[Round], night: int | None = None
               ) -> dict[str, Any]:
    """The next round to play tonight (one after the highest with a result on ``night``,
    the seating's, or when it is not known the newest night): its tables with each
    player's name (the roster's, else as last played), and the bye. ``round`` is None when
    the seating has no more rounds."""
    newest = (db.execute("SELECT MAX(night) FROM result").fetchone()[0] if night is None
              else night)
    played = db.execute("SELECT MAX(round) FROM result WHERE night = ?",
                        (newest,)).fetchone()[0] if newest is not None else None
    number = (played or 0) + 1
    found = next((r for r in seating if r.number == number), None)
    if found is None:
        return {"round": None, "tables": [], "bye": None}

    def name(member: str) -> str | None:
        row = db.execute("SELECT name FROM member WHERE member = ? UNION ALL SELECT name FROM "
                         "line WHERE member = ? LIMIT 1", (member, member)).fetchone()
        return None if row is None else str(row[0])

    return {"round": number, "bye": found.bye, "tables": [
        {"table": t.number, "members": list(t.players), "names": [name(m) for m in t.players]}
        for t in found.tables]}


class SeasonPoints:
    """The club's table of season points: a night's game points and the season points they
    earn (the highest line reached counts). RULES.md: Grass Roots clubs award season points
    to players with 12 or more game points in a night, and no more: how many points, and
    whether more game points earn more, it does not say. The default table follows it
    where it speaks (season points from 12 game points, none below) and gives one point
    for reaching 12 where it is silent (:data:`DEFAULT_SEASON`): the club's own table
    replaces it (``club serve --season-points``).

    >>> table = SeasonPoints.parse("12=1,15=2,18=3")
    >>> [table.points(gp) for gp in (11, 12, 16, 27)]
    [0, 1, 2, 3]
    """

    def __init__(self, lines: tuple[tuple[int, int], ...]) -> None:
        self.lines = tuple(sorted(lines))

    @classmethod
    def parse(cls, text: str) -> SeasonPoints:
        """``GAMEPOINTS=POINTS,...``; ClubError naming what is not one."""
        lines = []
        for part in text.split(","):
            gp, sep, sp = part.strip().partition("=")
            if not (sep and gp.isascii() and gp.isdigit() and sp.isascii() and sp.isdigit()
                    and 0 < int(gp) <= 999 and 0 < int(sp) <= 999):
                raise ClubError(f"season points {part.strip()[:20]!r}: give GAMEPOINTS=POINTS "
                                "lines, e.g. 12=1,15=2")
            lines.append((int(gp), int(sp)))
        return cls(tuple(lines))

    def points(self, game_points: int) -> int:
        """The season points a night of ``game_points`` earns."""
        return max((sp for gp, sp in self.lines if game_points >= gp), default=0)

    def __str__(self) -> str:
        return ",".join(f"{gp}={sp}" for gp, sp in self.lines)


DEFAULT_SEASON = SeasonPoints(((12, 1),))
"""RULES.md's club section: season points to a player with 12 or more game points in a
night (one point: check the club's own table)."""


def season(db: sqlite3.Connection, club: str | None = None,
           table: SeasonPoints = DEFAULT_SEASON) -> list[dict[str, Any]]:
    """The season across nights: each player's season points (each night's standings, byes
    included, by the club's ``table``), the nights played and the nights that earned season
    points, with the season's game points, wins, losses and spread; ranked by season points,
    then game points, wins and spread (the member number breaks a tie)."""
    found: dict[str, dict[str, Any]] = {}
    for night in nights(db):
        for player in standings(db, night, club):
            into = found.setdefault(player["member"], {
                "member": player["member"], "name": player["name"], "season_points": 0,
                "nights": 0, "earning": 0, "game_points": 0, "wins": 0, "losses": 0,
                "spread": 0, "guest": player["guest"], "unknown": player["unknown"]})
            earned = table.points(player["game_points"])
            into["season_points"] += earned
            into["nights"] += 1
            into["earning"] += earned > 0
            for key in ("game_points", "wins", "losses", "spread"):
                into[key] += player[key]
    ordered = sorted(found.values(), key=lambda p: (-p["season_points"], -p["game_points"],
                                                    -p["wins"], -p["spread"], p["member"]))
    return [{"rank": place, **player} for place, player in enumerate(ordered, start=1)]


SEASON_COLUMNS = ("rank", "member", "name", "season_points", "nights", "earning",
                  "game_points", "wins", "losses", "spread", "guest", "unknown")


def season_csv(db: sqlite3.Connection, table: SeasonPoints = DEFAULT_SEASON) -> str:
    """The season standings: one row per player, by season points."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(SEASON_COLUMNS)
    for player in season(db, None, table):
        writer.writerow([int(v) if isinstance(v, bool) else v
                         for v in (player[key] for key in SEASON_COLUMNS)])
    return out.getvalue()


POTS_COLUMNS = ("night", "pot", "member", "name", "points", "counted", "cards", "result")


def pots_csv(db: sqlite3.Connection, night: int | None = None) -> str:
    """The night's pots and who won each: every special hand (24, 28, 29, four of a kind)
    with its player, and each 9–0 night, one row each."""
    found = specials(db, night)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(POTS_COLUMNS)
    for hand in found["hands"]:
        writer.writerow([hand["night"], hand["hand"], hand["member"], hand["name"],
                         hand["points"], hand["counted"], hand["cards"], hand["result"]])
    for perfect in found["nine_oh"]:
        writer.writerow([perfect["night"], "9-0 night", perfect["member"], perfect["name"],
                         "", "", "", ""])
    return out.getvalue()
