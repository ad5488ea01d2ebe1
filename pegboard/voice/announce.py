"""What to say after a step: the announcements the engine's facts of each new entry call for.

The loop hands every new app state to an :class:`Announcer`; it reads the engine's report of
each entry added since the last state it saw (:meth:`pegboard.rules.game.Game.reports`) and
says its facts in order, in players' words (:mod:`pegboard.voice.phrases`):

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
held, and said once the owner's count is in (as the screen then shows the whole count).

Pure: it only reads values, so the same states always give the same words.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from pegboard.app.coach import COACH, SHOW_ORDER
from pegboard.app.state import AppState, OwnCount, Reading, ScreenState
from pegboard.app.words import side_name
from pegboard.rules.events import Claim
from pegboard.rules.facts import (
    ClaimClosed,
    ClaimOpened,
    Counted,
    GameOver,
    Laid,
    Report,
    SaidGo,
    Scored,
    ShowStep,
)
from pegboard.rules.game import Game
from pegboard.rules.state import Award, Phase, Reason
from pegboard.voice.phrases import (
    Phrases,
    act_phrase,
    award_phrase,
    claim_phrase,
    coach_phrase,
    is_play_act,
    laid_phrase,
    no_score_phrase,
    phrases_for,
    result_phrase,
    standing,
    step_phrase,
)


class Importance(enum.IntEnum):
    """How much an announcement matters: a newer one replaces an unsaid older one of lower
    importance (a hand's count is worth more than the last card's "fifteen for two"); audio
    mode's sounds (``CUE``) are never replaced, and a wheel word only by the next."""

    CUE = -3
    """Audio mode: a short sound (a click, the tone of a key taken or refused)."""
    WHEEL = -2
    """Audio mode: the card, row or number the knob or a key moved to."""
    SCREEN = -1
    """Audio mode: a screen or page reached, a row changed, "Entered"."""
    TEACHING = 0
    PLAY = 1
    SHOW = 2
    PENALTY = 3
    RESULT = 4
    ASKED = 5
    """Asked for by a player: "Say it again", or the screen read aloud."""


_IMPORTANCE = {
    Reason.HIS_HEELS: Importance.SHOW, Reason.HAND: Importance.SHOW,
    Reason.CRIB: Importance.SHOW, Reason.PEG: Importance.SHOW,
    Reason.THREE_FOR_LAST: Importance.SHOW, Reason.PENALTY: Importance.PENALTY,
    Reason.MUGGINS: Importance.PENALTY, Reason.RENEGE_TAKE_BACK: Importance.PENALTY,
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
    audio: bool = False
    """Audio mode: each card laid named, the standing after each score, who plays after a
    go or a reset, an undo said (:func:`told`)."""
    _header: object = None
    _game: Game | None = None
    _entries: int = 0
    _pages: tuple[object, ...] = ()
    _held: tuple[Announcement, ...] = ()
    _phrases: Phrases = field(init=False)

    def __post_init__(self) -> None:
        self._phrases = phrases_for(self.language)

    def begin(self, state: AppState) -> None:
        """Take ``state`` as what has already been said (power-on, a resumed game)."""
        self._remember(state)

    def heard(self, state: AppState) -> Heard:
        """The announcements ``state`` brings since the last state seen."""
        session = state.session
        if session is None or session.header is not self._header or self._game is None:
            self._remember(state)
            self._held = ()
            return Heard()
        game = session.game
        entries = len(session.events)
        fork = _shared(self._game, game, self._entries)
        taken = self._game.reports(fork) if fork < self._entries else ()
        if taken and fork == entries:
            self._remember(state)
            self._held = ()
            return Heard(self._taken_back(state.award, entries), undone=entries)
        if not taken and entries == self._entries and not isinstance(state.screen, Reading):
            self._pages = ()
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
            said.extend(told(report, gs.names, sides, self._phrases, entries,
                             audio=self.audio))
        return said

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
        waiting = _waiting(screen)
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
            return []
        out = []
        for page in screen.pages:
            if page.title == "No score" and page not in self._pages and page.lines:
                out.append(Announcement(no_score_phrase(page.lines[0], self._phrases),
                                        "no score", Importance.TEACHING, entries))
            elif page.title.startswith(SHOW_ORDER) and page not in self._pages:
                out.append(Announcement(coach_phrase(page.lines), SHOW_ORDER,
                                        Importance.SHOW, entries))
            elif page.title.startswith(COACH) and page not in self._pages:
                out.append(Announcement(coach_phrase(page.lines), "coach",
                                        Importance.TEACHING, entries))
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


def told(report: Report, names: Sequence[str], sides: Sequence[str],
         p: Phrases, entry: int = 0, *, audio: bool = False) -> list[Announcement]:
    """The announcements one entry's report calls for, in the order of its facts (see the
    module's docstring); ``entry`` is what each belongs to.

    In audio mode also: every card laid, named with the count it made or with what it
    scored ("Ann, seven: twenty-two"), a go ("Ben: go"), the board after every score ("Ann
    46, Ben 39", from the act's own board) and, after a go or a count's reset, who plays.
    """
    out = _told(report, names, sides, p, entry, audio)
    turn = report.next
    restarted = report.first(SaidGo) is not None or (
        report.first(Laid) is not None and turn.count == 0)
    if audio and restarted and turn.phase is Phase.PLAY and turn.to_act is not None:
        out.append(Announcement(f"{names[turn.to_act]} to play", "turn", Importance.PLAY,
                                entry))
    return out


def _told(report: Report, names: Sequence[str], sides: Sequence[str],
          p: Phrases, entry: int, audio: bool) -> list[Announcement]:
    out: list[Announcement] = []
    taken: dict[int, tuple[int, int]] = {}  # player -> side, points taken back
    count = report.next.count
    step: ShowStep | None = None
    claimed = False
    facts = report.facts
    shown: int | None = None  # where the count just said is, for its standing
    for index, fact in enumerate(facts):
        if isinstance(fact, Laid):
            count = fact.count
            after = facts[index + 1] if index + 1 < len(facts) else None
            scores = isinstance(after, Scored) and is_play_act(after) and (
                after.player == fact.player)
            if audio and not scores:
                out.append(Announcement(laid_phrase(names[fact.player], fact.card.rank, (),
                                                    fact.count, p),
                                        "laid", Importance.PLAY, entry))
        elif isinstance(fact, SaidGo):
            if audio:
                out.append(Announcement(f"{names[fact.player]}: go", "go", Importance.PLAY,
                                        entry))
        elif isinstance(fact, ClaimClosed):
            # the claim's own act comes next (other windows it closed peg nothing)
            claimed = claimed or (isinstance(report.event, Claim) and fact.pegged > 0)
        elif isinstance(fact, ShowStep):
            after = facts[index + 1] if index + 1 < len(facts) else None
            if not isinstance(after, ClaimOpened):  # a muggins count stays hidden
                step = fact
                shown = len(out)
                out.append(Announcement(step_phrase(fact, names, p), fact.counted.value,
                                        Importance.SHOW, entry))
        elif isinstance(fact, GameOver):
            out.append(Announcement(result_phrase(fact, sides, p), "result",
                                    Importance.RESULT, entry))
        elif isinstance(fact, Scored):
            if step is not None and _counts(fact, step):
                step = None  # the count just said, pegged
                if audio and shown is not None and fact.scores:
                    out[shown] = _standing(out[shown], fact, sides)
                continue
            if all(reason is Reason.RENEGE_TAKE_BACK for reason in fact.reasons):
                taken[fact.player] = (fact.side, taken.get(fact.player, (0, 0))[1] + fact.points)
                continue
            said = _claimed(fact, names, p, entry) if claimed else _act(
                fact, count, names, p, entry)
            before = facts[index - 1] if index else None
            if audio and isinstance(before, Laid) and is_play_act(fact) and not claimed:
                scored = [(a.reason, a.points) for a in fact.awards]
                said = replace(said, text=laid_phrase(names[fact.player], before.card.rank,
                                                      scored, count, p))
            out.append(_standing(said, fact, sides) if audio and fact.scores else said)
            claimed = False
    for player, (side, points) in taken.items():  # one sum per player, before the rest
        back = Award(player, side, points, Reason.RENEGE_TAKE_BACK, "")
        out.insert(0, Announcement(award_phrase(back, names[player], names, p),
                                   back.reason, Importance.PENALTY, entry))
    return out


def _standing(said: Announcement, act: Scored, sides: Sequence[str]) -> Announcement:
    """Audio mode: an award with the board it left: "Ann: fifteen for two; Ann 46, Ben 39"."""
    return replace(said, text=f"{said.text}; {standing(act.scores, sides)}")


def _counts(act: Scored, step: ShowStep) -> bool:
    """Whether ``act`` pegs the count ``step`` (the engine reports the count, then its act)."""
    reason = Reason.CRIB if step.counted is Counted.CRIB else Reason.HAND
    return act.reasons == (reason,) and act.player == step.player


def _act(act: Scored, count: int, names: Sequence[str], p: Phrases,
         entry: int) -> Announcement:
    if is_play_act(act):
        reasons = act.reasons
        kind = "play" if any(r not in (Reason.GO, Reason.LAST_CARD) for r in reasons) else (
            str(reasons[-1]))
        return Announcement(act_phrase(act, count, names, p), kind, Importance.PLAY, entry)
    reason = act.reasons[0]
    return Announcement(act_phrase(act, count, names, p), str(reason),
                        _IMPORTANCE.get(reason, Importance.SHOW), entry)


def _claimed(act: Scored, names: Sequence[str], p: Phrases, entry: int) -> Announcement:
    """Points pegged as their owner claimed them (muggins games): one announcement for the
    claim, "Ann claims five", or a hand or crib said like any count."""
    reason = act.reasons[0]
    if reason in (Reason.HAND, Reason.CRIB):
        return Announcement(claim_phrase(act.awards[0], names[act.player], p), str(reason),
                            Importance.SHOW, entry)
    whole = Award(act.player, act.side, act.points, reason, "")
    importance = Importance.PLAY if is_play_act(act) else _IMPORTANCE.get(reason,
                                                                         Importance.SHOW)
    return Announcement(claim_phrase(whole, names[act.player], p), "claim", importance, entry)
