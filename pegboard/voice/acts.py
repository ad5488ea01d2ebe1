"""One entry's report in words: the announcements each of the engine's facts calls for
(:func:`told`), and what an announcement is (its words, kind and :class:`Importance`).

:mod:`pegboard.voice.announce` decides which reports are new; this module only words them,
in the order of their facts. Pure: the same report always gives the same announcements.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from pegboard.rules.events import Claim, Deal, Starter
from pegboard.rules.facts import (
    ClaimClosed,
    ClaimOpened,
    ClaimOutcome,
    Counted,
    Fact,
    GameOver,
    Laid,
    MugginsClosed,
    PenaltyApplied,
    Report,
    SaidGo,
    Scored,
    ShowStep,
)
from pegboard.rules.scoring import Breakdown, ScoreItem
from pegboard.rules.speech import count_phrases
from pegboard.rules.state import Award, Phase, Reason, shown_scores
from pegboard.voice.phrases import (
    Phrases,
    act_phrase,
    award_phrase,
    card_word,
    claim_phrase,
    corrected_phrase,
    is_play_act,
    laid_head,
    laid_phrase,
    muggins_phrase,
    result_phrase,
    short_step_phrase,
    standing,
    step_phrase,
)

DEAL = "deal"
"""The kind of the announcement of a new deal and its dealer (audio mode)."""

STARTER = "starter"
"""The kind of the announcement of the starter turned up (audio mode)."""

SCORE = "score"
"""The kind of the answer to "say the score" (asked for: said next, ahead of the queue)."""


class Importance(enum.IntEnum):
    """What an announcement is to the speech queue (:mod:`pegboard.voice.speaker`): from
    ``TEACHING`` up, the game's own words, every one said; a wheel word and a screen's name
    may give way to newer words, and audio mode's sounds (``CUE``) are never replaced."""

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
class Parts:
    """Audio mode: an announcement of the game in the parts a newer announcement may make
    obsolete, for a voice the table has got ahead of (:func:`merged`). ``head`` is never
    obsolete: who, the card, what it scored ("Ben, eight: fifteen for two", "Ann: go", a
    count); ``count`` is the count a card that scored nothing made ("twenty-two"), obsolete
    once a later card is said; ``board`` the standing after a score ("Ann 46, Ben 39"),
    obsolete once a later standing is. ``card``: a card laid (it says the count); ``turn``:
    the whole announcement is whose turn it is, obsolete once a later card or turn is said.
    ``go``: the whole announcement is a go said by that player, obsolete when the next says
    that player's one for the go (``for_go``: the point for the go pegged by that player),
    which says the go ("Ben: go; Ann: one for the go", not "...; Ann: go; Ann: one for the
    go"). ``player``: who laid the card; ``brief``: the card's words without their name
    ("six"; "ten: twenty for two, a pair"), in a game of two players, said in place of
    ``head`` right after the other player's card in one sentence (the turn passed as it
    always does: "Ben, queen; six; three" for Ben, Ann, Ben).
    """

    head: str
    count: str = ""
    board: str = ""
    card: bool = False
    turn: bool = False
    go: int | None = None
    for_go: int | None = None
    player: int | None = None
    brief: str = ""

    @property
    def text(self) -> str:
        """The words of all the parts: "Ann, seven: twenty-two"; "...; Ann 46, Ben 39"."""
        text = f"{self.head}: {self.count}" if self.count else self.head
        return f"{text}; {self.board}" if self.board else text


PLAY_KINDS = frozenset({"laid", "go", "turn", "play", str(Reason.GO), str(Reason.LAST_CARD)})
"""The kinds of the play's announcements, merged into one sentence when the voice is behind:
a card laid, a go, whose turn it is, a card's points, a go's or the last card's point."""


@dataclass(frozen=True, slots=True)
class Announcement:
    """One thing to say: the words, what kind of thing it is, how much it matters and the
    entry it belongs to (the number of entries in force once it was made; 0 for none).

    ``about`` are the facts its words are made of, as far as they make its words (a count's
    step, with the board in audio mode; an act's awards with the count): two announcements
    about the same facts say the same, so a correction says again only what changed
    (:mod:`pegboard.voice.announce`). Empty for words that are not the engine's facts."""

    text: str
    kind: str
    importance: Importance
    entry: int = 0
    about: tuple[object, ...] = field(default=(), compare=False)
    parts: Parts | None = field(default=None, compare=False)
    """Audio mode, a fact of the game: its words in parts a newer fact may make obsolete
    (None: said as it is, never merged)."""
    merged: tuple[Announcement, ...] = field(default=(), compare=False)
    """For an announcement :func:`merged` made: the announcements it says, in order."""
    short: str = field(default="", compare=False)
    """A show count's short form, without its standing ("Ben: twelve, fifteens and a double
    run"), said instead of its whole words when the table is a deal ahead of the voice
    (:func:`briefly`; empty: none)."""


def briefly(said: Announcement) -> Announcement:
    """``said`` in its short form (a count the table is a deal ahead of), with its
    standing; it says ``said`` (:attr:`Announcement.merged`)."""
    parts = None if said.parts is None else replace(said.parts, head=said.short)
    return replace(said, text=said.short if parts is None else parts.text, parts=parts,
                   merged=(said,))


def of_parts(parts: Parts, kind: str, importance: Importance, entry: int,
             about: tuple[object, ...]) -> Announcement:
    """An announcement whose words are ``parts``."""
    return Announcement(parts.text, kind, importance, entry, about, parts)


def merged(run: Sequence[Announcement], steps: Sequence[int], newer_board: int | None,
           ) -> Announcement:
    """What a voice the table has got ahead of says for ``run``, announcements of the game
    waiting one after another (each with its :class:`Parts`), brought by the keys numbered
    ``steps``; ``newer_board`` is the step of the latest standing waiting after them (None:
    none waits).

    Nothing that happened is left out: every card, go and point is said, in order. Only what
    an announcement a later key brought makes obsolete goes (what one key brought is said
    whole): a card's count when a later card is said, whose turn it was when a later card or
    turn is said, and a standing when a later one is: "Ann, seven; Ben, eight: fifteen for
    two; Ann 46, Ben 39; Ann, king: twenty-five". A go followed at once by the same player's
    one for the go is said by the point alone, even from one key ("Ben: go; Ann: one for the
    go": the point is pegged for a go). In a game of two, a card right after the other
    player's card goes without its player's name ("Ann, seven; eight: fifteen for two"). An
    announcement with nothing obsolete is itself."""
    kept = [a.parts for a in run]
    words: list[str] = []
    obsolete = False
    before: Parts | None = None  # the part said last
    for i, (part, step) in enumerate(zip(kept, steps, strict=True)):
        assert part is not None
        later = [p for p, s in zip(kept[i + 1:], steps[i + 1:], strict=True)
                 if p is not None and s > step]
        newer = any(p.board for p in later) or (newer_board is not None and newer_board > step)
        if part.turn and any(p.card or p.turn for p in later):
            obsolete = True
            continue
        after = kept[i + 1] if i + 1 < len(kept) else None
        if part.go is not None and after is not None and after.for_go == part.go:
            obsolete = True
            continue
        text = part.head
        if (part.brief and before is not None and before.card and before.player is not None
                and before.player != part.player):
            text = part.brief  # the other player's card just said: whose this is goes
            obsolete = True
        before = part
        if part.count and any(p.card for p in later):
            obsolete = True
        elif part.count:
            text = f"{text}: {part.count}"
        if part.board and newer:
            obsolete = True
        elif part.board:
            text = f"{text}; {part.board}"
        words.append(text)
    if len(run) == 1 and not obsolete:
        return run[0]
    text = "; ".join(words)
    first = run[0]
    return Announcement(text, first.kind if len(run) == 1 else "merged",
                        max(a.importance for a in run), first.entry,
                        merged=tuple(part for a in run for part in (a.merged or (a,))))


def told(report: Report, names: Sequence[str], sides: Sequence[str],
         p: Phrases, entry: int = 0, *, target: int, audio: bool = False,
         ) -> list[Announcement]:
    """The announcements one entry's report calls for, in the order of its facts (see the
    module's docstring); ``entry`` is what each belongs to, ``target`` the game's (no board
    is said past it).

    In audio mode also: every card laid, named with the count it made or with what it
    scored ("Ann, seven: twenty-two"), a go ("Ben: go"), the board after every score ("Ann
    46, Ben 39", the act's own board as the board shows it: the side that pegged out at the
    target, :func:`~pegboard.rules.state.shown_scores`) and, after a go or a count's reset,
    who plays.
    """
    out = _told(report, names, sides, p, entry, target, audio)
    turn = report.next
    event = report.event
    if audio and isinstance(event, Starter) and not any(
            Reason.HIS_HEELS in act.reasons for act in report.of(Scored)):
        # the starter turned up, by its rank: a player who cannot see the pack needs it to
        # count their hand (his heels names a jack itself)
        out.insert(0, Announcement(p.starter.format(card=card_word(event.card.rank, p)),
                                   STARTER, Importance.PLAY, entry, (event.card.rank,)))
    if audio and isinstance(report.event, Deal) and turn.dealer is not None:
        # A new deal and its dealer: an announcement of the game's own, never replaced by
        # the next screen's words as a screen's title would be.
        out.append(Announcement(f"{deal_words(turn.deal_no)}: {names[turn.dealer]} deals",
                                DEAL, Importance.PLAY, entry, (turn.deal_no, turn.dealer)))
    laid = report.first(Laid)
    # whose turn it is, where it does not simply pass on: after a go, a count started again,
    # or a card after which the same player lays again (the others out of cards or gone)
    restarted = report.first(SaidGo) is not None or (
        laid is not None and (turn.count == 0 or turn.to_act == laid.player))
    if audio and restarted and turn.phase is Phase.PLAY and turn.to_act is not None:
        out.append(of_parts(Parts(f"{names[turn.to_act]} to play", turn=True), "turn",
                            Importance.PLAY, entry, (turn.to_act,)))
    return out


def deal_words(deal_no: int) -> str:
    """A deal by its number, as audio mode names it: "Deal 3"."""
    return f"Deal {deal_no}"


def _told(report: Report, names: Sequence[str], sides: Sequence[str],
          p: Phrases, entry: int, target: int, audio: bool) -> list[Announcement]:
    out: list[Announcement] = []
    taken: dict[int, tuple[int, int]] = {}  # player -> side, points taken back
    count = report.next.count
    step: ShowStep | None = None
    claimed = False
    over: int | None = None  # what an over-claim claimed, its act next
    facts = report.facts
    shown: int | None = None  # where the count just said is, for its standing
    # each fact with the one before it and the one after it
    for before, fact, after in zip((None, *facts), facts, (*facts[1:], None), strict=False):
        if isinstance(fact, Laid):
            count = fact.count
            out += _laid(fact, after, names, p, entry) if audio else []
        elif isinstance(fact, SaidGo) and audio:
            out.append(of_parts(Parts(f"{names[fact.player]}: go", go=fact.player), "go",
                                Importance.PLAY, entry, (fact.player,)))
        elif isinstance(fact, ClaimClosed):
            # the claim's own act comes next (other windows it closed peg nothing)
            claimed = claimed or (isinstance(report.event, Claim) and fact.pegged > 0)
            if isinstance(report.event, Claim) and fact.outcome is ClaimOutcome.OVER:
                over = fact.claimed  # its act is said as corrected
        elif isinstance(fact, ShowStep) and not isinstance(after, ClaimOpened):
            step = fact  # (a muggins count, its claim window next, stays hidden)
            shown = len(out)
            out.append(Announcement(step_phrase(fact, names, p), fact.counted.value,
                                    Importance.SHOW, entry,
                                    (fact.player, fact.counted, _phrases(fact.items)),
                                    short=short_step_phrase(fact, names, p)))
        elif isinstance(fact, GameOver):
            out.append(Announcement(result_phrase(fact, sides, p), "result",
                                    Importance.RESULT, entry, (fact,)))
        elif isinstance(fact, Scored):
            if step is not None and _counts(fact, step):
                step = None  # the count just said, pegged
                if audio and shown is not None and fact.scores:
                    out[shown] = _standing(out[shown], fact, sides, target)
                continue
            if all(reason is Reason.RENEGE_TAKE_BACK for reason in fact.reasons):
                taken[fact.player] = (fact.side, taken.get(fact.player, (0, 0))[1] + fact.points)
                continue
            said = _claimed(fact, names, p, entry) if claimed else _act(
                fact, count, names, p, entry, report.penalty)
            if audio and isinstance(before, Laid) and is_play_act(fact) and not claimed:
                scored = [(a.reason, a.points) for a in fact.awards]
                text = laid_phrase(names[fact.player], before.card.rank, scored, count, p)
                brief = (laid_phrase("", before.card.rank, scored, count, p).removeprefix(", ")
                         if len(names) == 2 else "")
                said = replace(said, text=text, about=(*said.about, before.card.rank),
                               parts=Parts(text, card=True, player=fact.player, brief=brief))
            called = report.first(MugginsClosed)
            if fact.reasons == (Reason.MUGGINS,) and called is not None and called.taken:
                # the call's page shows whose score was short and which: said with the act
                missed = called.missed
                said = replace(said, text=muggins_phrase(names[fact.player], fact.points,
                                                         names[missed.owner], missed.reason,
                                                         p),
                               about=(*said.about, missed))
            if over is not None:
                said = replace(said, text=corrected_phrase(fact, over, names, p),
                               about=(*said.about, over))
                over = None
            out.append(_standing(said, fact, sides, target) if audio and fact.scores else said)
            claimed = False
    return _taken_back(taken, names, p, entry) + out


def _taken_back(taken: dict[int, tuple[int, int]], names: Sequence[str], p: Phrases,
                entry: int) -> list[Announcement]:
    """A renege's points taken back: one sum per player, said before the rest."""
    out: list[Announcement] = []
    for player, (side, points) in taken.items():
        back = Award(player, side, points, Reason.RENEGE_TAKE_BACK, "")
        out.insert(0, Announcement(award_phrase(back, names[player], names, p),
                                   back.reason, Importance.PENALTY, entry,
                                   (player, _words_of(back))))
    return out


def _laid(laid: Laid, after: Fact | None, names: Sequence[str], p: Phrases,
          entry: int) -> list[Announcement]:
    """Audio mode: a card laid that scores nothing, named with the count it made (a card that
    scores is said with its act)."""
    if isinstance(after, Scored) and is_play_act(after) and after.player == laid.player:
        return []
    parts = Parts(laid_head(names[laid.player], laid.card.rank, p), p.number(laid.count),
                  card=True, player=laid.player,
                  brief=card_word(laid.card.rank, p) if len(names) == 2 else "")
    return [of_parts(parts, "laid", Importance.PLAY, entry,
                     (laid.player, laid.card.rank, laid.count))]


def _standing(said: Announcement, act: Scored, sides: Sequence[str], target: int,
              ) -> Announcement:
    """Audio mode: an award with the board it left as the board shows it (a side that pegged
    out at ``target``, never its full total): "Ann: fifteen for two; Ann 46, Ben 39"."""
    board = shown_scores(act.scores, target)
    parts = replace(said.parts or Parts(said.text), head=said.text,
                    board=standing(board, sides),
                    for_go=act.player if act.reasons == (Reason.GO,) else None)
    return replace(said, text=parts.text, about=(*said.about, board), parts=parts)


def _counts(act: Scored, step: ShowStep) -> bool:
    """Whether ``act`` pegs the count ``step`` (the engine reports the count, then its act)."""
    reason = Reason.CRIB if step.counted is Counted.CRIB else Reason.HAND
    return act.reasons == (reason,) and act.player == step.player


def _act(act: Scored, count: int, names: Sequence[str], p: Phrases,
         entry: int, penalty: PenaltyApplied | None) -> Announcement:
    about = (act.player, *(_words_of(award) for award in act.awards), count)
    if is_play_act(act):
        reasons = act.reasons
        kind = "play" if any(r not in (Reason.GO, Reason.LAST_CARD) for r in reasons) else (
            str(reasons[-1]))
        return Announcement(act_phrase(act, count, names, p), kind, Importance.PLAY, entry,
                            about)
    reason = act.reasons[0]
    return Announcement(act_phrase(act, count, names, p, penalty), str(reason),
                        _IMPORTANCE.get(reason, Importance.SHOW), entry, about)


def _claimed(act: Scored, names: Sequence[str], p: Phrases, entry: int) -> Announcement:
    """Points pegged as their owner claimed them (muggins games): one announcement for the
    claim, "Ann claims five", or a hand or crib said like any count."""
    reason = act.reasons[0]
    if reason in (Reason.HAND, Reason.CRIB):
        return Announcement(claim_phrase(act.awards[0], names[act.player], p), str(reason),
                            Importance.SHOW, entry, (act.player, _words_of(act.awards[0])))
    whole = Award(act.player, act.side, act.points, reason, "")
    importance = Importance.PLAY if is_play_act(act) else _IMPORTANCE.get(reason,
                                                                         Importance.SHOW)
    return Announcement(claim_phrase(whole, names[act.player], p), "claim", importance, entry,
                        (act.player, _words_of(whole)))


def _words_of(award: Award) -> tuple[object, ...]:
    """What of an award its words are made of (an announcement's :attr:`~Announcement.about`):
    its reason and points, a count's phrases, a penalty's sentence; never the suits of its
    cards, which no words name."""
    if award.reason in (Reason.HAND, Reason.CRIB):
        return (award.reason, award.points, _phrases(award.items))
    if award.reason is Reason.PENALTY:
        return (award.reason, award.points, award.sentence)
    return (award.reason, award.points)


def _phrases(items: tuple[ScoreItem, ...]) -> tuple[tuple[object, ...], ...]:
    """A count as its words say it: each phrase with its running total and length."""
    return tuple((phrase.said, phrase.total, phrase.length)
                 for phrase in count_phrases(Breakdown(items)))
