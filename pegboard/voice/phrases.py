"""What Pegboard says aloud, in players' words: pure text, no I/O.

Every announcement is built here from the engine's facts (a :class:`Scored` act, a
:class:`ShowStep`, a :class:`GameOver`), a near-miss reason or a :class:`View`, so the words
can be pinned in tests and translated in one table. The words follow the table talk of
``docs/rules.md``:

* a card that scores in the play: the count, then the points, then what made them —
  "twenty-four for three, a run"; "fifteen for two"; "thirty-one for two"; "twelve for six,
  pair royal"; a card that makes fifteen and a pair at once: "fifteen for four, and a pair";
* the go and last card: "one for the go", "one for last card"; his heels: "his heels for two";
* a show count, phrase by phrase with the running total, named: "Ann: fifteen two, fifteen
  four, and a pair is six"; the crib: "Ann's crib: ..."; a hand of nothing: "nineteen";
* penalties and muggins, pegged back or given: "Penalty. Ann: renege, four to Ben";
* the end: "Ann wins, one hundred and twenty-one to eighty-five. A skunk: three game points."

Each phrase starts with the player's name, so at a table of three or four nobody has to look.

Only English is written so far; :data:`PHRASES` is the table a translation adds to (its
language code is what ``[voice] language`` accepts).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from pegboard.app.view import Screen, View
from pegboard.rules.cards import Rank
from pegboard.rules.facts import Counted, GameOver, PenaltyApplied, Scored, ShowStep
from pegboard.rules.scoring import Breakdown, ScoreItem
from pegboard.rules.speech import Said, count_phrases
from pegboard.rules.speech import number as english_number
from pegboard.rules.state import PLAY_REASONS, Award, Reason
from pegboard.rules.value import Value, replace


class Phrases(Value):
    """One language's words. ``number`` spells a number as that language says scores."""

    __slots__ = (
        "another_pair",
        "breakdown",
        "claimed",
        "claims",
        "closing",
        "corrected",
        "count_for",
        "crib",
        "fifteen",
        "flush",
        "game_points",
        "hand",
        "heels",
        "last_joiner",
        "muggins",
        "muggins_on",
        "named",
        "nineteen",
        "no_score",
        "nob",
        "number",
        "pairs",
        "peg",
        "penalty_back",
        "penalty_to",
        "play",
        "recounted",
        "runs",
        "several",
        "short",
        "skunk",
        "starter",
        "still",
        "take_back",
        "three_for_last",
        "winner",
    )
    __match_args__ = (
        "number",
        "play",
        "count_for",
        "closing",
        "heels",
        "fifteen",
        "pairs",
        "another_pair",
        "runs",
        "flush",
        "nob",
        "last_joiner",
        "nineteen",
        "hand",
        "crib",
        "claimed",
        "claims",
        "corrected",
        "peg",
        "three_for_last",
        "penalty_to",
        "penalty_back",
        "muggins",
        "muggins_on",
        "take_back",
        "winner",
        "skunk",
        "game_points",
        "no_score",
        "starter",
        "recounted",
        "named",
        "several",
        "short",
        "breakdown",
        "still",
    )

    number: Callable[[int], str]
    play: dict[Reason, str]
    """Names of what a card scored in the play, by award reason."""
    count_for: str
    """A scoring card: ``{count} for {points}``."""
    closing: dict[Reason, str]
    """The go and last card on their own: ``{points}``."""
    heels: str
    fifteen: str
    """A show fifteen: ``{total}``."""
    pairs: dict[int, str]
    """Pairs of one rank by how many pairs they make: ``{total}``."""
    another_pair: str
    runs: dict[int, str]
    """Runs over the same ranks by how many (2 a double run, said with its pair): ``{length}``,
    ``{of}`` (empty for three cards, else "of" and the length) and ``{total}``."""
    flush: str
    nob: str
    last_joiner: str
    """Put before the last phrase of a count ("and ")."""
    nineteen: str
    hand: str
    crib: str
    """A count's owner: ``{name}``."""
    claimed: str
    """A count pegged as claimed (muggins games): ``{points}``."""
    claims: str
    """Points of the play pegged as claimed (muggins games): ``{name}``, ``{points}``."""
    corrected: str
    """An over-claim put right (muggins games): ``{who}`` (a name, or a count's owner),
    ``{claimed}``, ``{points}`` (what was pegged: the true score)."""
    peg: str
    three_for_last: str
    penalty_to: str
    penalty_back: str
    muggins: str
    muggins_on: str
    """A muggins call that took points, with what was missed: ``{name}`` (who took them),
    ``{points}``, ``{owner}`` (who missed them), ``{what}`` (the score missed: "crib")."""
    take_back: str
    winner: str
    skunk: dict[str, str]
    game_points: str
    no_score: str
    """A teaching near miss: ``{why}`` (the engine's one-line reason)."""
    starter: str
    """Audio mode: the starter turned up, by its rank (its suit may be the box's stand-in):
    ``{card}``."""
    recounted: str
    """A count said again because the entries before it were put right (a forgotten flush
    or his nobs added with GO): ``{said}``, the count as the engine now counts it."""
    named: dict[Said, str] | None
    """What each kind of phrase of a count is called in a count's short form (a voice
    behind the table): a fifteen, a pair, a run ... (None: no short form; the terse style,
    whose counts are shorter still)."""
    several: dict[Said, str] | None
    """... the names of more than one phrase of the same kind ("fifteens", "two pairs")."""
    short: str
    """A count's short form: ``{total}`` and the ``{names}`` of what made it."""
    breakdown: bool
    """A count said phrase by phrase ("fifteen two, fifteen four, and a pair is six"), or
    by its total alone ("six": the terse style)."""
    still: str
    """A later count whose words did not change, said again for the standing a count put
    right before it moved (a count is never said whole twice): ``{who}`` (a count's owner,
    :attr:`hand` or :attr:`crib`), ``{points}``."""

    def __init__(
        self,
        number: Callable[[int], str],
        play: dict[Reason, str],
        count_for: str,
        closing: dict[Reason, str],
        heels: str,
        fifteen: str,
        pairs: dict[int, str],
        another_pair: str,
        runs: dict[int, str],
        flush: str,
        nob: str,
        last_joiner: str,
        nineteen: str,
        hand: str,
        crib: str,
        claimed: str,
        claims: str,
        corrected: str,
        peg: str,
        three_for_last: str,
        penalty_to: str,
        penalty_back: str,
        muggins: str,
        muggins_on: str,
        take_back: str,
        winner: str,
        skunk: dict[str, str],
        game_points: str,
        no_score: str,
        starter: str,
        recounted: str,
        named: dict[Said, str] | None = None,
        several: dict[Said, str] | None = None,
        short: str = "{total}, {names}",
        breakdown: bool = True,
        still: str = "{who} still {points}",
    ) -> None:
        setter = object.__setattr__
        setter(self, "number", number)
        setter(self, "play", play)
        setter(self, "count_for", count_for)
        setter(self, "closing", closing)
        setter(self, "heels", heels)
        setter(self, "fifteen", fifteen)
        setter(self, "pairs", pairs)
        setter(self, "another_pair", another_pair)
        setter(self, "runs", runs)
        setter(self, "flush", flush)
        setter(self, "nob", nob)
        setter(self, "last_joiner", last_joiner)
        setter(self, "nineteen", nineteen)
        setter(self, "hand", hand)
        setter(self, "crib", crib)
        setter(self, "claimed", claimed)
        setter(self, "claims", claims)
        setter(self, "corrected", corrected)
        setter(self, "peg", peg)
        setter(self, "three_for_last", three_for_last)
        setter(self, "penalty_to", penalty_to)
        setter(self, "penalty_back", penalty_back)
        setter(self, "muggins", muggins)
        setter(self, "muggins_on", muggins_on)
        setter(self, "take_back", take_back)
        setter(self, "winner", winner)
        setter(self, "skunk", skunk)
        setter(self, "game_points", game_points)
        setter(self, "no_score", no_score)
        setter(self, "starter", starter)
        setter(self, "recounted", recounted)
        setter(self, "named", named)
        setter(self, "several", several)
        setter(self, "short", short)
        setter(self, "breakdown", breakdown)
        setter(self, "still", still)


ENGLISH = Phrases(
    number=english_number,
    play={Reason.FIFTEEN: "fifteen", Reason.THIRTY_ONE: "thirty-one", Reason.PAIR: "a pair",
          Reason.PAIR_ROYAL: "pair royal", Reason.DOUBLE_PAIR_ROYAL: "double pair royal",
          Reason.RUN: "a run"},
    count_for="{count} for {points}",
    closing={Reason.GO: "one for the go", Reason.LAST_CARD: "one for last card"},
    heels="his heels for {points}",
    fifteen="fifteen {total}",
    pairs={1: "a pair is {total}", 3: "pair royal is {total}", 6: "double pair royal is {total}"},
    another_pair="another pair is {total}",
    runs={1: "a run of {length} is {total}", 2: "a double run{of} is {total}",
          3: "a triple run is {total}", 4: "a double double run is {total}"},
    flush="a flush of {length} is {total}",
    nob="his nob is {total}",
    last_joiner="and ",
    nineteen="nineteen",
    hand="{name}",
    crib="{name}'s crib",
    claimed="{points}, as claimed",
    claims="{name} claims {points}",
    corrected="{who}: {claimed} claimed, corrected to {points}",
    peg="pegs {points}",
    three_for_last="three for last",
    penalty_to="Penalty. {name}: {what}, {points} to {to}",
    penalty_back="Penalty. {name}: {what}, {points} back",
    muggins="Muggins! {name} takes {points}",
    muggins_on="Muggins! {name} takes {points} from {owner}'s {what}",
    take_back="{name} loses {points}, taken back after the renege",
    winner="{name} wins, {scores}.",
    skunk={"none": "", "skunk": "A skunk: ", "double": "A double skunk: "},
    game_points="{points} game point{s}.",
    no_score="{heading}. {why}",
    recounted="Recounted. {said}",
    starter="The starter is {card}",
    named={Said.FIFTEEN: "a fifteen", Said.PAIR: "a pair", Said.PAIR_ROYAL: "pair royal",
           Said.DOUBLE_PAIR_ROYAL: "double pair royal", Said.RUN: "a run",
           Said.DOUBLE_RUN: "a double run", Said.TRIPLE_RUN: "a triple run",
           Said.DOUBLE_DOUBLE_RUN: "a double double run", Said.FLUSH: "a flush",
           Said.NOBS: "his nob"},
    several={Said.FIFTEEN: "fifteens", Said.PAIR: "two pairs", Said.RUN: "two runs"},
)

TERSE_ENGLISH = replace(ENGLISH, breakdown=False, named=None, starter="Starter {card}",
                        closing={Reason.GO: "one for go", Reason.LAST_CARD: "one for last"},
                        last_joiner="")
"""The terse style (``[voice] style = "terse"``): the same facts, fewer words."""

PHRASES: dict[str, Phrases] = {"en": ENGLISH}
"""Every language Pegboard can speak, by the code ``[voice] language`` takes."""

TERSE: dict[str, Phrases] = {"en": TERSE_ENGLISH}
"""Each language's terse style."""


def phrases_for(language: str, *, terse: bool = False) -> Phrases:
    """The phrase table of ``language``, in the terse style with ``terse`` (a ``KeyError``
    names the languages there are)."""
    try:
        return (TERSE if terse else PHRASES)[language]
    except KeyError:
        raise KeyError(f"no phrases for language {language!r}; there are: "
                       f"{', '.join(sorted(PHRASES))}") from None


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def play_phrase(awards: Sequence[Award], count: int, name: str, p: Phrases = ENGLISH) -> str:
    """One card laid in the play, with everything it scored for ``name``.

    >>> from pegboard.rules.state import Award
    >>> run = Award(0, 0, 3, Reason.RUN, "", cards=())
    >>> play_phrase([run], 24, "Ann")
    'Ann: twenty-four for three, a run'
    """
    return f"{name}: {play_words([(a.reason, a.points) for a in awards], count, p)}"


def play_words(scored: Sequence[tuple[Reason, int]], count: int, p: Phrases = ENGLISH) -> str:
    """What a card laid makes, from its ``(reason, points)``: "twenty-four for three, a run";
    a card that scores nothing is just the count ("twenty-two")."""
    scoring = [(r, n) for r, n in scored if r in p.play]
    parts: list[str] = []
    if scoring:
        points = sum(n for _, n in scoring)
        head = p.count_for.format(count=p.number(count), points=p.number(points))
        what = [p.play[r] for r, _ in scoring if r not in (Reason.FIFTEEN, Reason.THIRTY_ONE)]
        if what and len(what) < len(scoring):
            what[-1] = p.last_joiner + what[-1]
        parts.append(", ".join([head, *what]))
    for reason, _ in scored:
        if reason in p.closing:
            parts.append((p.last_joiner if parts else "") + p.closing[reason])
    return ", ".join(parts) if parts else p.number(count)


def show_phrase(items: Sequence[ScoreItem], owner: str, *, crib: bool = False,
                p: Phrases = ENGLISH) -> str:
    """A hand or crib counted aloud in show order, each phrase with the running total.

    Fifteens one by one, then pairs (pair royal, double pair royal), runs (double, triple,
    quadruple), the flush and last his nob; "and" before the last phrase.
    """
    return f"{(p.crib if crib else p.hand).format(name=owner)}: {count_words(items, p)}"


def count_words(items: Sequence[ScoreItem], p: Phrases = ENGLISH) -> str:
    """A show breakdown said aloud, without the owner: "fifteen two, fifteen four, and a double
    run is twelve" (see :func:`show_phrase`); the phrases are the engine's one wording of a
    count (:func:`pegboard.rules.speech.count_phrases`), only the words are this language's."""
    if not p.breakdown:  # the terse style: the total alone
        points = sum(item.points for item in items)
        return p.number(points) if points else p.nineteen
    phrases: list[str] = []
    said = count_phrases(Breakdown(tuple(items)))
    for phrase in said:
        total = p.number(phrase.total)
        length = p.number(phrase.length)
        if phrase.said is Said.FIFTEEN:
            phrases.append(p.fifteen.format(total=total))
        elif phrase.said is Said.ANOTHER_PAIR:
            phrases.append(p.another_pair.format(total=total))
        elif phrase.said in _PAIRS:
            phrases.append(p.pairs[_PAIRS[phrase.said]].format(total=total))
        elif phrase.said in _RUNS:
            of = "" if phrase.length == 3 else f" of {length}"
            template = p.runs[_RUNS[phrase.said]]
            phrases.append(template.format(length=length, of=of, total=total))
        elif phrase.said is Said.FLUSH:
            phrases.append(p.flush.format(length=length, total=total))
        else:
            phrases.append(p.nob.format(total=total))
    if not phrases:
        phrases.append(p.nineteen)
    elif len(phrases) > 1 and any(phrase.said is not Said.FIFTEEN for phrase in said):
        # "and" before the last phrase, unless it is all fifteens: "fifteen two, fifteen four"
        phrases[-1] = p.last_joiner + phrases[-1]
    return ", ".join(phrases)


def short_count_words(items: Sequence[ScoreItem], p: Phrases = ENGLISH) -> str:
    """A count in its short form, for a voice the table is ahead of: the total and the
    names of what made it, each kind once ("twelve, fifteens and a double run"; "six, a
    fifteen, a pair and his nob"); a hand of nothing "nineteen". Empty: the phrases have no
    short form (the terse style says the total alone)."""
    if p.named is None:
        return ""
    said = [phrase.said for phrase in count_phrases(Breakdown(tuple(items)))]
    if not said:
        return p.nineteen
    kinds = [Said.PAIR if kind is Said.ANOTHER_PAIR else kind for kind in said]
    names: list[str] = []
    for kind in dict.fromkeys(kinds):
        many = (p.several or {}).get(kind) if kinds.count(kind) > 1 else None
        names.append(many or p.named[kind])
    if len(names) > 1:
        names[-1] = p.last_joiner + names[-1]
    joined = " ".join(names) if len(names) == 2 else ", ".join(names)
    total = sum(item.points for item in items)
    return p.short.format(total=p.number(total), names=joined)


def short_step_phrase(step: ShowStep, names: Sequence[str], p: Phrases = ENGLISH) -> str:
    """A hand or crib counted, in its short form with its owner ("Ben: twelve, fifteens and
    a double run"); empty where the phrases have none, or for a count of one phrase, which
    is as short whole ("Ben: a pair is two")."""
    words = short_count_words(step.items, p)
    whole = count_words(step.items, p)
    if ", " not in whole or len(words.split()) >= len(whole.split()):
        return ""
    owner = p.crib if step.counted is Counted.CRIB else p.hand
    return f"{owner.format(name=names[step.player])}: {words}"


_PAIRS = {Said.PAIR: 1, Said.PAIR_ROYAL: 3, Said.DOUBLE_PAIR_ROYAL: 6}
_RUNS = {Said.RUN: 1, Said.DOUBLE_RUN: 2, Said.TRIPLE_RUN: 3, Said.DOUBLE_DOUBLE_RUN: 4}


def _without_rule(text: str) -> str:
    """A penalty's label without its rule reference: "Renege (ACC 7.3 (2020))" -> "Renege"."""
    while True:
        shorter = re.sub(r"\s*\([^()]*\)", "", text)
        if shorter == text:
            return text.strip()
        text = shorter


def award_phrase(award: Award, name: str, names: Sequence[str], p: Phrases = ENGLISH,
                 penalty: PenaltyApplied | None = None) -> str:
    """Any award that is not a card in the play: his heels, a show count, a peg, three for
    last, a penalty (worded from ``penalty``, the engine's fact of it: the infraction and
    who committed it), muggins, a renege's take-back."""
    points = p.number(abs(award.points))
    reason = award.reason
    if reason == Reason.HIS_HEELS:
        return f"{name}: {p.heels.format(points=points)}"
    if reason in (Reason.HAND, Reason.CRIB):
        if award.items and sum(i.points for i in award.items) == award.points:
            return show_phrase(award.items, name, crib=reason == Reason.CRIB, p=p)
        who = (p.crib if reason == Reason.CRIB else p.hand).format(name=name)
        return f"{who}: {p.claimed.format(points=points)}"
    if reason == Reason.PEG:
        return f"{name} {p.peg.format(points=points)}"
    if reason == Reason.THREE_FOR_LAST:
        return f"{name}: {p.three_for_last}"
    if reason == Reason.MUGGINS:
        return p.muggins.format(name=name, points=points)
    if reason == Reason.RENEGE_TAKE_BACK:
        return p.take_back.format(name=name, points=points)
    if reason == Reason.PENALTY and penalty is not None:
        what = _without_rule(penalty.infraction.name).lower()
        if award.points < 0:
            return p.penalty_back.format(name=name, what=what, points=points)
        offender = names[penalty.offender] if penalty.offender < len(names) else name
        return p.penalty_to.format(name=offender, what=what, points=points, to=name)
    return f"{name}: {reason}, {points}"


def muggins_phrase(name: str, points: int, owner: str, reason: Reason,
                   p: Phrases = ENGLISH) -> str:
    """A muggins call that took points, with whose score was short and which ("Muggins! Ben
    takes two from Ann's crib"): everything the call's page shows, said once."""
    what = "heels" if reason is Reason.HIS_HEELS else str(reason)
    return p.muggins_on.format(name=name, points=p.number(points), owner=owner, what=what)


def step_phrase(step: ShowStep, names: Sequence[str], p: Phrases = ENGLISH) -> str:
    """A hand or the crib as the engine counted it (a :class:`ShowStep`), said aloud:
    "Ben: fifteen two, and a pair is four"; a hand of nothing: "Ben: nineteen"."""
    return show_phrase(step.items, names[step.player], crib=step.counted is Counted.CRIB, p=p)


def act_phrase(act: Scored, count: int, names: Sequence[str], p: Phrases = ENGLISH,
               penalty: PenaltyApplied | None = None) -> str:
    """One scoring act (a :class:`Scored` fact) said aloud: a card's points with the count it
    made and its go or last card ("Ann: fifteen for two, and one for last card"); any other
    act as :func:`award_phrase` says its award (a penalty's from ``penalty``, the fact of
    the entry that pegged it)."""
    name = names[act.player]
    if is_play_act(act):
        return play_phrase(act.awards, count, name, p)
    return "; ".join(award_phrase(award, name, names, p, penalty) for award in act.awards)


def is_play_act(act: Scored) -> bool:
    """An act of the play (said with the count): every reason a play reason."""
    return all(reason in PLAY_REASONS for reason in act.reasons) and act.points > 0


def claim_phrase(award: Award, name: str, p: Phrases = ENGLISH) -> str:
    """Points pegged as their owner claimed them (muggins games): "Ann claims five"; a
    show count claimed in full is said like any count."""
    if award.reason in (Reason.HAND, Reason.CRIB):
        return award_phrase(award, name, (), p)
    return p.claims.format(name=name, points=p.number(award.points))


def corrected_phrase(act: Scored, claimed: int, names: Sequence[str],
                     p: Phrases = ENGLISH) -> str:
    """An over-claim the engine corrected to the true score (muggins games), said as
    corrected, never "as claimed": "Ben: six claimed, corrected to zero"; a count put right
    goes on with its words ("Ann's crib: nine claimed, corrected to six: fifteen two, fifteen
    four, and a pair is six")."""
    name = names[act.player]
    reason = act.reasons[0] if act.reasons else None
    owner = p.crib if reason == Reason.CRIB else p.hand if reason == Reason.HAND else "{name}"
    text = p.corrected.format(who=owner.format(name=name), claimed=p.number(claimed),
                              points=p.number(act.points))
    items = [item for award in act.awards for item in award.items]
    if p.breakdown and reason in (Reason.HAND, Reason.CRIB) and act.points and sum(
            i.points for i in items) == act.points:
        text += f": {count_words(items, p)}"
    return text


def result_phrase(over: GameOver, sides: Sequence[str], p: Phrases = ENGLISH) -> str:
    """The winner, the scores as the board shows them (winner first, at the target), the
    skunk and the game points won: the engine's :class:`GameOver`.

    >>> from pegboard.rules.state import Skunk
    >>> over = GameOver(1, 0, (124, 85), (121, 85), 36, Skunk.SKUNK, (3, 0))
    >>> result_phrase(over, ["Ann", "Ben"])
    'Ann wins, one hundred and twenty-one to eighty-five. A skunk: three game points.'
    """
    shown = over.shown
    order = [over.winner, *(s for s in range(len(shown)) if s != over.winner)]
    scores = " to ".join(p.number(shown[s]) for s in order)
    won = over.game_points[over.winner]
    text = p.winner.format(name=sides[over.winner], scores=scores)
    points = p.game_points.format(points=p.number(won), s="" if won == 1 else "s")
    skunk = p.skunk.get(over.skunk, "")
    return f"{text} {skunk}{points if skunk else _cap(points)}"


def no_score_phrase(heading: str, why: str, p: Phrases = ENGLISH) -> str:
    """A teaching near miss, as its page says it (its title, the player's call, then the
    reason): "16, no score. No fifteen: one past it"."""
    return p.no_score.format(heading=heading, why=_cap(why))


_SPOKEN_CARDS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
_SUITS = {"♠": " of spades", "♥": " of hearts", "♦": " of diamonds", "♣": " of clubs"}


def coach_phrase(lines: Sequence[str]) -> str:
    """A coach page said aloud: its lines as one sentence, suits and face cards in words."""
    return _speakable(" ".join(lines))


def card_word(rank: Rank, p: Phrases = ENGLISH) -> str:
    """A card laid, said by its rank: "seven", "ten", "jack", "ace"."""
    face = _SPOKEN_CARDS.get(rank.symbol)
    return face if face is not None else p.number(int(rank))


def laid_phrase(name: str, rank: Rank, scored: Sequence[tuple[Reason, int]], count: int,
                p: Phrases = ENGLISH) -> str:
    """Audio mode: a card laid, named, with what it made: "Ann, seven: twenty-two";
    "Ben, eight: fifteen for two"; a go or last card with the count: "Ben, ten: eighteen,
    and one for last card"."""
    words = play_words(scored, count, p)
    if scored and not any(reason in p.play for reason, _ in scored):
        words = f"{p.number(count)}, {p.last_joiner}{words}"
    return f"{laid_head(name, rank, p)}: {words}"


def laid_head(name: str, rank: Rank, p: Phrases = ENGLISH) -> str:
    """Audio mode: who laid which card, without what it made: "Ann, seven"."""
    return f"{name}, {card_word(rank, p)}"


def standing(scores: Sequence[int], sides: Sequence[str]) -> str:
    """Audio mode: the board after a score, every side: "Ann 46, Ben 39"."""
    return ", ".join(f"{side} {score}" for side, score in zip(sides, scores, strict=False))


def speakable(line: str) -> str:
    """Screen text as a speech engine can read it: suit symbols and face cards in words,
    the key legend's arrows dropped."""
    return _speakable(line)


def _speakable(line: str) -> str:
    line = _CARD_LETTER.sub(lambda m: _SPOKEN_CARDS[m.group(1)], line)
    for symbol, words in _SUITS.items():
        line = line.replace(symbol, words)
    return re.sub(r"[<>←→↑↓•*]", " ", line).strip()


_CARD_LETTER = re.compile(r"\b([JQK]|A(?! (?!(?:flush|nobs)(?: \d)?\b(?! [a-z]))[a-z]))\b")
"""A card's letter on the screen ("A", "J♣", "7 Q 3"), but not the article "A" of prose ("A
race to 121"): an "A" followed by a word is the article, unless the word is the wheel's suit
fact that ends its words ("A flush", "A flush 4")."""


def read_view(view: View) -> str:
    """Everything on a screen as one text to read aloud: the title, the scores, the count
    and last award, whose turn, the card being chosen, the lines (the highlighted row of a
    list said as "chosen")."""
    parts: list[str] = []
    if view.title:
        parts.append(view.title)
    if view.sides and view.screen is not Screen.MENU:
        parts.append(", ".join(f"{side.name} {side.score}" for side in view.sides))
    if view.count is not None:
        parts.append(f"count {view.count}")
    if view.award:
        parts.append(view.award)
    if view.picker is not None:
        parts.append(f"{view.picker.spoken or view.picker.prompt}: {view.picker.entering}")
    for index, line in enumerate(view.lines):
        parts.append(f"{line}, chosen" if index == view.selected else line)
    parts.append(view.coach)  # the pegging coach's line, whole
    return ". ".join(_speakable(part) for part in parts if part.strip())
