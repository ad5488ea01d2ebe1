"""What to say after a step: the announcements an app state brings, worked out from the game.

The loop hands every new app state to an :class:`Announcer`; it compares the game with the
one it saw last and returns what happened, in players' words (:mod:`pegboard.voice.phrases`):

* new entries: their awards, in order — a card's play points together with the count it
  made, each other award on its own (his heels, a show count, a peg, three for last, a
  penalty, muggins, a take-back), then the winner when the game ended;
* an entry taken back: nothing to say, but :attr:`Heard.undone` tells the speaker to drop
  what it still had to say for the undone entries;
* with teaching on, a card that nearly scored: the one-line reason on its "No score" page.

Pure: it only reads values, so the same states always give the same words.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace

from pegboard.app.state import AppState, Reading
from pegboard.app.words import side_name
from pegboard.rules.events import Claim, Play
from pegboard.rules.state import Award, GameState, Reason
from pegboard.voice.phrases import (
    Phrases,
    award_phrase,
    claim_phrase,
    is_play,
    no_score_phrase,
    phrases_for,
    play_phrase,
    result_phrase,
)


class Importance(enum.IntEnum):
    """How much an announcement matters: a newer one replaces an unsaid older one of lower
    importance (a hand's count is worth more than the last card's "fifteen for two")."""

    TEACHING = 0
    PLAY = 1
    SHOW = 2
    PENALTY = 3
    RESULT = 4
    ASKED = 5
    """Asked for by a player: "Say it again", or the screen read aloud."""


_IMPORTANCE = {
    "his heels": Importance.SHOW, "hand": Importance.SHOW, "crib": Importance.SHOW,
    "peg": Importance.SHOW, "three for last": Importance.SHOW,
    "penalty": Importance.PENALTY, "muggins": Importance.PENALTY,
    "renege take-back": Importance.PENALTY,
}


@dataclass(frozen=True, slots=True)
class Announcement:
    """One thing to say: the words, what kind of thing it is, how much it matters and the
    entry it belongs to (the number of entries in force once it was made; 0 for none)."""

    text: str
    kind: str
    importance: Importance
    entry: int = 0


@dataclass(frozen=True, slots=True)
class Heard:
    """What one step brought: announcements to make, and (after an undo) the number of
    entries still in force — anything queued for a later entry is to be dropped."""

    said: tuple[Announcement, ...] = ()
    undone: int | None = None


@dataclass(slots=True)
class Announcer:
    """Remembers the game it last saw, to tell what each new state adds."""

    language: str = "en"
    _header: object = None
    _entries: int = 0
    _awards: int = 0
    _count: int = 0
    _ended: bool = False
    _pages: tuple[object, ...] = ()
    _phrases: Phrases = field(init=False)

    def __post_init__(self) -> None:
        self._phrases = phrases_for(self.language)

    def begin(self, state: AppState) -> None:
        """Take ``state`` as what has already been said (power-on, a resumed game)."""
        self._remember(state)

    def heard(self, state: AppState) -> Heard:
        """The announcements ``state`` brings since the last state seen."""
        session = state.session
        if session is None or session.header is not self._header:
            self._remember(state)
            return Heard()
        entries = len(session.events)
        if entries < self._entries:
            self._remember(state)
            return Heard(undone=entries)
        if entries == self._entries and not isinstance(state.screen, Reading):
            self._pages = ()
            return Heard()
        gs = session.state
        said = list(self._awards_said(gs, state, entries))
        said.extend(self._teaching(state, entries))
        if gs.result is not None and not self._ended:
            sides = [side_name(gs, s) for s in range(gs.sides)]
            said.append(Announcement(result_phrase(gs.result, sides, self._phrases), "result",
                                     Importance.RESULT, entries))
        self._remember(state)
        return Heard(tuple(said))

    def _awards_said(self, gs: GameState, state: AppState, entries: int,
                     ) -> list[Announcement]:
        new = gs.awards[self._awards:] if len(gs.awards) >= self._awards else gs.awards
        out: list[Announcement] = []
        played: list[Award] = []
        assert state.session is not None
        last = state.session.events[-1] if state.session.events else None
        count = self._count + last.card.pips if isinstance(last, Play) else gs.count
        if count > 31:  # the count was reset after a go the state had not shown yet
            count = last.card.pips if isinstance(last, Play) else gs.count
        claim = isinstance(last, Claim)

        def flush() -> None:
            if played:
                text = play_phrase(played, count, gs.names[played[0].player], self._phrases)
                kind = "play" if any(a.reason not in ("go", "last card") for a in played) else (
                    played[-1].reason)
                out.append(Announcement(text, kind, Importance.PLAY, entries))
                played.clear()

        taken: dict[int, int] = {}
        claimed: list[Award] = []
        for award in new:
            if award.reason == "renege take-back":  # one sum per player, not one per award
                taken[award.player] = taken.get(award.player, 0) + award.points
                continue
            if claim and out and out[-1].kind == "claim" and award.reason not in (
                    "hand", "crib") and claimed[-1].player == award.player:
                claimed[-1] = replace(award, points=claimed[-1].points + award.points)
                out[-1] = replace(out[-1], text=claim_phrase(claimed[-1], gs.names[award.player],
                                                             self._phrases))
                continue
            if claim:
                claimed.append(award)
                kind = award.reason if award.reason in ("hand", "crib") else "claim"
                importance = Importance.PLAY if is_play(award) else _IMPORTANCE.get(
                    award.reason, Importance.SHOW)
                out.append(Announcement(claim_phrase(award, gs.names[award.player],
                                                     self._phrases), kind, importance, entries))
                continue
            if is_play(award) and award.points > 0:
                if played and played[0].player != award.player:
                    flush()
                played.append(award)
                continue
            flush()
            text = award_phrase(award, gs.names[award.player], gs.names, self._phrases)
            out.append(Announcement(text, award.reason, _IMPORTANCE.get(award.reason,
                                                                     Importance.SHOW), entries))
        flush()
        for player, points in taken.items():
            back = Award(player, gs.side_of(player), points, Reason.RENEGE_TAKE_BACK, "")
            out.insert(0, Announcement(award_phrase(back, gs.names[player], gs.names,
                                                    self._phrases),
                                       back.reason, Importance.PENALTY, entries))
        return out

    def _teaching(self, state: AppState, entries: int) -> list[Announcement]:
        screen = state.screen
        if not isinstance(screen, Reading):
            return []
        out = []
        for page in screen.pages:
            if page.title == "No score" and page not in self._pages and page.lines:
                out.append(Announcement(no_score_phrase(page.lines[0], self._phrases),
                                        "no score", Importance.TEACHING, entries))
        return out

    def _remember(self, state: AppState) -> None:
        session = state.session
        screen = state.screen
        self._pages = screen.pages if isinstance(screen, Reading) else ()
        if session is None:
            self._header, self._entries, self._awards, self._count = None, 0, 0, 0
            self._ended = False
            return
        gs = session.state
        self._header = session.header
        self._entries = len(session.events)
        self._awards = len(gs.awards)
        self._count = gs.count
        self._ended = gs.result is not None
