"""What to say after a step: the announcements the engine's facts of each new entry call for.

The loop tells an :class:`Announcer` what each batch of steps did: the engine's report of
every entry it added and of every entry it withdrew (:class:`~pegboard.app.effects.Changes`),
with the app state it left. It says the facts of the added reports in order, in players'
words (:mod:`pegboard.voice.acts` words each report):

* each scoring act (a :class:`~pegboard.rules.facts.Scored` fact) once: a card's play points
  with the count it made and its go or last card ("Ann: fifteen for two, and one for last
  card"), each other act on its own (his heels, a peg, three for last, a penalty, muggins);
  a renege's take-backs as one sum per player, first;
* each hand and crib the engine counts (a :class:`~pegboard.rules.facts.ShowStep`), a hand of
  nothing included ("Ben: nineteen"); its :class:`Scored` act is that same count, not said
  twice. In a muggins game a count waiting for its claim is not said (it stays hidden until
  claimed); the claim is said when it is pegged;
* the end of the game (:class:`~pegboard.rules.facts.GameOver`), as the board shows it;
* an entry taken back (its report withdrawn): nothing to say (in audio mode "Taken back"
  and what it was), but :attr:`Heard.undone` tells the speaker to drop what it still had to
  say for the undone entries;
* entries taken back and entered again in one step (GO adds a forgotten flush or his nobs):
  only what their new reports call for that is about other facts than what the withdrawn
  reports called for, each once ("Recounted. Ben: ... twelve"; in audio mode a later count's
  new board): an announcement names the facts it words (:attr:`Announcement.about`);
* with teaching on, a card that nearly scored: the one-line reason on its near-miss page
  (each page's kind, :class:`~pegboard.app.view.PageKind`, says what it is).

With count it yourself on (teaching), a count is not said before its owner has turned in
theirs: while the screen waits for an owner's count, that count and everything after it are
held, and said once the owner's count is in (as the screen then shows the whole count). A
count the engine still holds when the announcer begins (a game resumed after a power cut) was
never said: it is said, from the facts of the entry that pegged it, once its owner's count is
in (the ``own_count`` entry's :class:`~pegboard.rules.facts.CountSaid` fact).

:attr:`Announcer.voiced` names the kinds of the pages on screen whose words the teaching
voice has said, so that audio mode says only their titles as they are reached (each page said
once).

Pure: it only reads values, so the same reports and states always give the same words.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from pegboard.app.effects import Changes
from pegboard.app.state import AppState, OwnCount, Page, Reading, ScreenState
from pegboard.app.view import PageKind
from pegboard.app.words import describe, side_name
from pegboard.rules.events import OptionsChanged
from pegboard.rules.facts import (
    Counted,
    CountSaid,
    Report,
)
from pegboard.rules.value import Value
from pegboard.voice.acts import Announcement, Importance, Parts, told
from pegboard.voice.held import Unheard, pegged_before
from pegboard.voice.phrases import (
    Phrases,
    coach_phrase,
    no_score_phrase,
    phrases_for,
    speakable,
)


class Heard(Value):
    """What one step brought: announcements to make, and (after an undo) the number of
    entries still in force — anything queued for a later entry is to be dropped."""

    __slots__ = ("said", "undone")
    __match_args__ = ("said", "undone")

    said: tuple[Announcement, ...]
    undone: int | None

    def __init__(self, said: tuple[Announcement, ...] = (), undone: int | None = None) -> None:
        setter = object.__setattr__
        setter(self, "said", said)
        setter(self, "undone", undone)


@dataclass(slots=True)
class Announcer:
    """Remembers what it has said and still holds, to tell what each batch adds."""

    language: str = "en"
    audio: bool = False
    """Audio mode: each card laid named, the standing after each score, who plays after a
    go or a reset, an undo said (:func:`told`)."""
    terse: bool = False
    """The terse style: the same facts in fewer words (a count by its total)."""
    _pages: tuple[Page, ...] = ()
    _held: tuple[Announcement, ...] = ()
    _unheard: tuple[Unheard, ...] = ()
    """Counts held by the engine when this announcer began: pegged, never said."""
    voiced: frozenset[PageKind] = frozenset()
    """The kinds of the pages on screen whose words the teaching voice has said."""
    _phrases: Phrases = field(init=False)

    def __post_init__(self) -> None:
        self._phrases = phrases_for(self.language, terse=self.terse)

    def begin(self, state: AppState) -> None:
        """Take ``state`` as what has already been said (power-on, a resumed game): all but
        the counts the engine holds for their owners, said when their owners' counts come."""
        self._remember(state)
        self._held, self.voiced = (), frozenset()
        session = state.session
        self._unheard = () if session is None else pegged_before(
            session.game, session.state.held_counts, len(session.events))

    def heard(self, state: AppState, changes: Changes | None = None) -> Heard:
        """The announcements a batch brings: ``changes``, the reports it added and withdrew
        (None: neither), leaving ``state``."""
        changes = changes or Changes()
        self._phrases = phrases_for(self.language, terse=self.terse)
        session = state.session
        if session is None or changes.began:
            self._remember(state)
            self._held, self._unheard, self.voiced = (), (), frozenset()
            return Heard()
        entries = len(session.events)
        added, taken = changes.added, changes.withdrawn
        self._unheard = tuple(u for u in self._unheard
                              if not any(u.report is report for report in taken))
        if taken and not added:
            self._remember(state)
            self._held = ()
            return Heard(self._taken_back(taken, state, entries), undone=entries)
        if not taken and not added and not isinstance(state.screen, Reading):
            self._pages, self.voiced = (), frozenset()
            return Heard(self._release(state.screen, []))
        said = self._told(state, added, entries)
        if taken:
            said = self._corrected(said, self._told(state, taken, entries),
                                   session.state.names)
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
                said.extend(self._unheard_count(count, gs.names, sides, entries,
                                                 gs.rules.target))
            said.extend(told(report, gs.names, sides, self._phrases, entries,
                             target=gs.rules.target, audio=self.audio))
        return said

    def _unheard_count(self, count: CountSaid, names: Sequence[str], sides: Sequence[str],
                       entries: int, target: int) -> list[Announcement]:
        """A count pegged before this announcer began, said as its owner's count comes in:
        worded from the facts of the entry that pegged it (its count and its act)."""
        first = self._unheard[0] if self._unheard else None
        if first is None or (first.player, first.counted) != (count.player, count.counted):
            return []
        self._unheard = self._unheard[1:]
        return told(first.pegged(), names, sides, self._phrases, entries, target=target,
                    audio=self.audio)

    def _corrected(self, said: list[Announcement], before: list[Announcement],
                   names: Sequence[str]) -> list[Announcement]:
        """Entries taken back and entered again in one step (GO putting a count right): of
        what their reports call for now, only what is about other facts than what the
        withdrawn reports called for (the count put right, a later count's new standing); a
        count so said again is said as recounted, with the standing it leaves. A later count
        whose words did not change is not said whole again: its total, with the standing it
        now leaves ("Recounted. Ann: ... twelve; Ann 82, Ben 79", then "Ben still six; Ann
        82, Ben 85"); a later count of nothing not at all (its standing is the one just
        said). What was held unsaid for the withdrawn entries (count it yourself) is
        dropped: the new reports bring it again."""
        unsaid = Counter(_about(a) for a in self._held)
        replaced = Counter(_about(a) for a in before)
        words = Counter(_words(a) for a in before if a.kind in _COUNTS) - Counter(
            _words(a) for a in self._held if a.kind in _COUNTS)
        self._held = tuple(a for a in self._held if _about(a) not in replaced)
        owed = replaced - unsaid  # said already, to be said again only if changed
        out: list[Announcement] = []
        recounted = False  # a count was said again: the later ones' standings moved
        for announcement in said:
            if owed[_about(announcement)] > 0:
                owed[_about(announcement)] -= 1
                continue
            parts = announcement.parts
            if (announcement.kind in _COUNTS and words[_words(announcement)] > 0
                    and recounted and parts is not None and parts.board):
                # the same words, only its standing is new: said by its total
                words[_words(announcement)] -= 1
                moved = self._still(announcement, parts, names)
                if moved is not None:
                    out.append(moved)
                continue
            if announcement.kind in _COUNTS:
                recounted = True
                again = self._phrases.recounted
                text = again.format(said=announcement.text)
                parts = announcement.parts
                if parts is not None:  # merged without its board: still said as recounted
                    parts = replace(parts, head=again.format(said=parts.head))
                short = again.format(said=announcement.short) if announcement.short else ""
                announcement = replace(announcement, text=text, parts=parts, short=short)
            out.append(announcement)
        return out

    def _still(self, count: Announcement, parts: Parts, names: Sequence[str],
               ) -> Announcement | None:
        """A later count said again for its new standing, by its total ("Ben still six; Ann
        82, Ben 85"); None for a count of nothing, which moves no standing."""
        player, counted, phrases = count.about[:3]
        assert isinstance(player, int) and isinstance(phrases, tuple)
        if not phrases:
            return None
        p = self._phrases
        who = (p.crib if counted is Counted.CRIB else p.hand).format(name=names[player])
        head = p.still.format(who=who, points=p.number(phrases[-1][1]))
        moved = replace(parts, head=head, count="")
        return replace(count, text=moved.text, parts=moved, short="")

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
        voiced = {page.kind for page in screen.pages} & self.voiced
        for page in screen.pages:
            if page in self._pages:
                continue
            if page.kind is PageKind.NO_SCORE and page.lines:
                out.append(Announcement(no_score_phrase(page.title, page.lines[0],
                                                        self._phrases),
                                        "no score", Importance.TEACHING, entries))
            elif page.kind is PageKind.SHOW_ORDER:
                out.append(Announcement(coach_phrase(page.lines), SHOW_ORDER,
                                        Importance.SHOW, entries))
            elif page.kind is PageKind.COACH:
                out.append(Announcement(coach_phrase(page.lines), "coach",
                                        Importance.TEACHING, entries))
            else:
                continue
            voiced.add(page.kind)
        self.voiced = frozenset(voiced)
        return out

    def _taken_back(self, taken: Sequence[Report], state: AppState, entries: int,
                    ) -> tuple[Announcement, ...]:
        """Audio mode: an undo said, with the entry it took back ("Taken back: the
        starter"): the first withdrawn that is not a table option (the automatic deal or
        the claim taken back with it came after it)."""
        if not self.audio:
            return ()
        assert state.session is not None
        names = state.session.state.names
        what = next((describe(report.event, names) for report in taken
                     if not isinstance(report.event, OptionsChanged)), "")
        # the entry as the screen names it, its card in words ("P1's queen", never "Q")
        return (Announcement(speakable(f"Taken back: {what}") if what else "Taken back",
                             "undo", Importance.PENALTY, entries),)

    def _remember(self, state: AppState) -> None:
        screen = state.screen
        self._pages = screen.pages if isinstance(screen, Reading) else ()


SHOW_ORDER = "show order"
"""The kind of the coach's show-order announcement, said before the first count."""

_COUNTS = frozenset(kind.value for kind in Counted)


def _about(said: Announcement) -> tuple[object, ...]:
    """What an announcement says, as the facts it words (its kind, then those facts)."""
    return (said.kind, *said.about)


def _words(said: Announcement) -> tuple[object, ...]:
    """What a count says but its standing (its kind, owner, what it counts and its
    phrases)."""
    return (said.kind, *said.about[:3])


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
