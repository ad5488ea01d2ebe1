"""What to say after a step: the announcements the engine's facts of each new entry call for.

The loop hands every new app state to an :class:`Announcer`; it reads the engine's report of
each entry added since the last state it saw (:meth:`pegboard.rules.game.Game.reports`) and
says its facts in order, in players' words (:mod:`pegboard.voice.acts` words each report):

* each scoring act (a :class:`~pegboard.rules.facts.Scored` fact) once: a card's play points
  with the count it made and its go or last card ("Ann: fifteen for two, and one for last
  card"), each other act on its own (his heels, a peg, three for last, a penalty, muggins);
  a renege's take-backs as one sum per player, first;
* each hand and crib the engine counts (a :class:`~pegboard.rules.facts.ShowStep`), a hand of
  nothing included ("Ben: nineteen"); its :class:`Scored` act is that same count, not said
  twice. In a muggins game a count waiting for its claim is not said (it stays hidden until
  claimed); the claim is said when it is pegged;
* the end of the game (:class:`~pegboard.rules.facts.GameOver`), as the board shows it;
* an entry taken back: nothing to say, but :attr:`Heard.undone` tells the speaker to drop
  what it still had to say for the undone entries;
* entries taken back and entered again in one step (GO adds a forgotten flush or his nobs):
  only what their new reports call for that differs from what was said, each once ("Recounted.
  Ben: ... twelve"; in audio mode a later count's new board). The reports tell entries apart;
* with teaching on, a card that nearly scored: the one-line reason on its "No score" page.

With count it yourself on (teaching), a count is not said before its owner has turned in
theirs: while the screen waits for an owner's count, that count and everything after it are
held, and said once the owner's count is in (as the screen then shows the whole count). A
count the engine still holds when the announcer begins (a game resumed after a power cut) was
never said: it is said, from the facts of the entry that pegged it, once its owner's count is
in (the ``own_count`` entry's :class:`~pegboard.rules.facts.CountSaid` fact).

:attr:`Announcer.voiced` names the pages whose words the teaching voice has said, so that
audio mode says only their titles as they are reached (each page said once).

Pure: it only reads values, so the same states always give the same words.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from pegboard.app.coach import COACH, SHOW_ORDER
from pegboard.app.state import AppState, OwnCount, Reading, ScreenState
from pegboard.app.words import side_name
from pegboard.rules.facts import (
    Counted,
    CountSaid,
    Report,
)
from pegboard.rules.game import Game
from pegboard.voice.acts import Announcement, Importance, told
from pegboard.voice.held import Unheard, pegged_before
from pegboard.voice.phrases import (
    Phrases,
    coach_phrase,
    no_score_phrase,
    phrases_for,
)


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
    audio: bool = False
    """Audio mode: each card laid named, the standing after each score, who plays after a
    go or a reset, an undo said (:func:`told`)."""
    _header: object = None
    _game: Game | None = None
    _entries: int = 0
    _pages: tuple[object, ...] = ()
    _held: tuple[Announcement, ...] = ()
    _unheard: tuple[Unheard, ...] = ()
    """Counts held by the engine when this announcer began: pegged, never said."""
    voiced: frozenset[str] = frozenset()
    """The titles of the pages on screen whose words the teaching voice has said."""
    _phrases: Phrases = field(init=False)

    def __post_init__(self) -> None:
        self._phrases = phrases_for(self.language)

    def begin(self, state: AppState) -> None:
        """Take ``state`` as what has already been said (power-on, a resumed game): all but
        the counts the engine holds for their owners, said when their owners' counts come."""
        self._remember(state)
        self.voiced = frozenset()
        session = state.session
        self._unheard = () if session is None else pegged_before(
            session.game, session.state.held_counts, len(session.events))

    def heard(self, state: AppState) -> Heard:
        """The announcements ``state`` brings since the last state seen."""
        session = state.session
        if session is None or session.header is not self._header or self._game is None:
            self._remember(state)
            self._held, self._unheard, self.voiced = (), (), frozenset()
            return Heard()
        game = session.game
        entries = len(session.events)
        fork = _shared(self._game, game, self._entries)
        taken = self._game.reports(fork) if fork < self._entries else ()
        self._unheard = tuple(u for u in self._unheard
                              if not any(u.report is report for report in taken))
        if taken and fork == entries:
            self._remember(state)
            self._held = ()
            return Heard(self._taken_back(state.award, entries), undone=entries)
        if not taken and entries == self._entries and not isinstance(state.screen, Reading):
            self._pages, self.voiced = (), frozenset()
            return Heard(self._release(state.screen, []))
        said = self._told(state, game.reports(fork), entries)
        if taken:
            said = self._corrected(said, self._told(state, taken, entries))
        said = _show_order_first([*said, *self._teaching(state, entries)])
        self._remember(state)
        return Heard(self._release(state.screen, said))

    def _told(self, state: AppState, reports: Sequence[Report], entries: int,
              ) -> list[Announcement]:
        assert state.session is not None
        gs = state.session.state
        sides = [side_name(gs, s) for s in range(gs.sides)]
        said: list[Announcement] = []
        for report in reports:
            for count in report.of(CountSaid):
                said.extend(self._unheard_count(count, gs.names, sides, entries))
            said.extend(told(report, gs.names, sides, self._phrases, entries,
                             audio=self.audio))
        return said

    def _unheard_count(self, count: CountSaid, names: Sequence[str], sides: Sequence[str],
                       entries: int) -> list[Announcement]:
        """A count pegged before this announcer began, said as its owner's count comes in:
        worded from the facts of the entry that pegged it (its count and its act)."""
        first = self._unheard[0] if self._unheard else None
        if first is None or (first.player, first.counted) != (count.player, count.counted):
            return []
        self._unheard = self._unheard[1:]
        return told(first.pegged(), names, sides, self._phrases, entries, audio=self.audio)

    def _corrected(self, said: list[Announcement], before: list[Announcement],
                   ) -> list[Announcement]:
        """Entries taken back and entered again in one step (GO putting a count right): of
        what their reports call for now, only what differs from what was said for the
        entries they replace (the count put right, a later count's new standing); a count
        so said again is said as recounted. What was held unsaid for the replaced entries
        (count it yourself) is dropped: the new reports bring it again."""
        unsaid = Counter(a.text for a in self._held)
        replaced = Counter(a.text for a in before)
        self._held = tuple(a for a in self._held if a.text not in replaced)
        owed = replaced - unsaid  # said already, to be said again only if changed
        out: list[Announcement] = []
        for announcement in said:
            if owed[announcement.text] > 0:
                owed[announcement.text] -= 1
                continue
            if announcement.kind in _COUNTS:
                text = self._phrases.recounted.format(said=announcement.text)
                announcement = replace(announcement, text=text)
            out.append(announcement)
        return out

    def _release(self, screen: ScreenState, said: list[Announcement]
                 ) -> tuple[Announcement, ...]:
        """What may be said now of what was held and ``said``: all but the counts whose
        owners have not yet turned in theirs (count it yourself) and what follows them."""
        waiting = _waiting(screen) - len(self._unheard)  # those were never queued
        queue = [*self._held, *said]
        counts = [i for i, a in enumerate(queue) if a.kind in _COUNTS]
        hold_from = len(queue)
        if 0 < waiting <= len(counts):
            hold_from = counts[len(counts) - waiting]
        self._held = tuple(queue[hold_from:])
        return tuple(queue[:hold_from])

    def _teaching(self, state: AppState, entries: int) -> list[Announcement]:
        screen = state.screen
        if not isinstance(screen, Reading):
            self.voiced = frozenset()
            return []
        out = []
        voiced = {page.title for page in screen.pages} & self.voiced
        for page in screen.pages:
            if page in self._pages:
                continue
            if page.title == "No score" and page.lines:
                out.append(Announcement(no_score_phrase(page.lines[0], self._phrases),
                                        "no score", Importance.TEACHING, entries))
            elif page.title.startswith(SHOW_ORDER):
                out.append(Announcement(coach_phrase(page.lines), SHOW_ORDER,
                                        Importance.SHOW, entries))
            elif page.title.startswith(COACH):
                out.append(Announcement(coach_phrase(page.lines), "coach",
                                        Importance.TEACHING, entries))
            else:
                continue
            voiced.add(page.title)
        self.voiced = frozenset(voiced)
        return out

    def _taken_back(self, award: str, entries: int) -> tuple[Announcement, ...]:
        """Audio mode: an undo said, with what it took back ("Taken back: the starter")."""
        if not self.audio:
            return ()
        what = award.removeprefix("Undone: ") if award.startswith("Undone: ") else ""
        return (Announcement(f"Taken back: {what}" if what else "Taken back", "undo",
                             Importance.PENALTY, entries),)

    def _remember(self, state: AppState) -> None:
        session = state.session
        screen = state.screen
        self._pages = screen.pages if isinstance(screen, Reading) else ()
        if session is None:
            self._header, self._game, self._entries = None, None, 0
            return
        self._header = session.header
        self._game = session.game
        self._entries = len(session.events)


_COUNTS = frozenset(kind.value for kind in Counted)


def _shared(old: Game, new: Game, entries: int) -> int:
    """How many entries ``new`` shares with ``old`` (which had ``entries``): a shared entry
    has the very report the engine made for it; one entered again has a new one."""
    shared = min(entries, len(new.events))
    window = 4
    while True:
        start = max(0, shared - window)
        mine, theirs = old.reports(start), new.reports(start)
        same = next((i for i in range(shared - start) if mine[i] is not theirs[i]),
                    shared - start)
        if same or start == 0:
            return start + same
        window *= 2


def _waiting(screen: ScreenState) -> int:
    """How many counts wait for their owners to turn in theirs (count it yourself)."""
    if isinstance(screen, Reading) and isinstance(screen.then, OwnCount):
        screen = screen.then
    if not isinstance(screen, OwnCount):
        return 0
    return sum(1 for page in screen.pages
               if page.count is not None and page.count.claimed is None)


def _show_order_first(said: list[Announcement]) -> list[Announcement]:
    """The coach's show order said before the first count it explains, as the screen shows
    it; it matters as much as a count, so the counts after it do not drop it unsaid."""
    order = [a for a in said if a.kind == SHOW_ORDER]
    rest = [a for a in said if a.kind != SHOW_ORDER]
    counts = {kind.value for kind in Counted}
    at = next((i for i, a in enumerate(rest) if a.kind in counts), len(rest))
    return [*rest[:at], *order, *rest[at:]]
