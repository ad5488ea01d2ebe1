"""One pegging judgement: the coach, the pegging hint, ``pegboard quiz`` and the game review
judge a card from the same knowledge by the same look-ahead, and agree on every situation.
The coach's card is the hint's, the quiz marks it right (and any other card right exactly when
it is as good), and the review never lists it as a mistake; the review's mistakes are exactly
the plays the look-ahead finds worse than a card then held."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from pegboard.coach.drills import Drill, Question, ask, mark
from pegboard.coach.hints import hint
from pegboard.coach.knowledge import Knowledge, knowledge_for
from pegboard.coach.lessons import MistakeKind, lessons
from pegboard.coach.lookahead import card_line, coach_line, given_up, judge
from pegboard.rules.events import Play
from pegboard.rules.game import Game
from pegboard.rules.state import Phase
from tests.support.games import random_game
from tests.test_pegging_lookahead import kept_turns

GAMES = range(3)


def situations() -> Iterator[Knowledge]:
    """200 quiz questions, 200 with open hands (the next player's cards shown), then every
    turn of random games (two and three players) with the cards the player held."""
    rng = random.Random(31)
    for _ in range(200):
        yield ask(Drill.PEG, rng).known
    for _ in range(200):
        yield ask(Drill.PEG, rng, open_hands=True).known
    for before, _, holding in kept_turns(GAMES):
        known = knowledge_for(before, holding=holding)
        assert known is not None
        yield known


def test_coach_hint_quiz_and_review_agree_on_every_situation() -> None:
    checked = wrong = 0
    for known in situations():
        found = judge(known)
        if not found:
            assert hint(known).card is None and card_line(known) is None
            continue
        coach = found[0].card
        line = coach_line(known, open_hand=True)
        assert line is not None
        named = re.match(r"Lay (\w+):", line)
        assert named is not None and named.group(1) == (
            "10" if coach.rank.symbol == "T" else coach.rank.symbol)
        assert hint(known).card == coach
        question = Question(Drill.PEG, known.cards, pile=known.pile, seen=known.seen,
                            next_left=known.next_left, theirs=known.theirs)
        assert mark(question, str(coach)).right
        assert given_up(known, coach) == 0  # the review's verdict: no mistake
        for ahead in found[1:]:
            lost = given_up(known, ahead.card)
            assert lost == found[0].value - ahead.value
            right = mark(question, str(ahead.card)).right
            assert right == (lost == 0)
            wrong += not right
        checked += 1
    assert checked > 600 and wrong > 100  # so the checks above really ran


def test_the_review_lists_exactly_the_plays_the_look_ahead_finds_worse() -> None:
    """Every play of a hand shown in random games: listed as a pegging mistake exactly when
    a card then held was worth more with what the player knew; the coach's card never."""
    listed = coached = 0
    for seed in GAMES:
        made = random_game(seed, 2 + seed % 2, dealt=True)
        game = Game.from_header(made.header)
        for event in made.events:
            game.push(event)
        found = lessons(game)
        mistakes = {(m.deal_no, m.player, m.did.split()[1]) for m in found.mistakes
                    if m.kind is MistakeKind.PEGGING}
        judged = sum(p.plays for p in found.players)
        worse: set[tuple[int, int, str]] = set()
        turns = 0
        last_deal = game.state.deal_no
        for before, card, holding in kept_turns([seed]):
            if before.deal_no == last_deal:
                continue  # the game may end before this deal's hands are shown
            known = knowledge_for(before, holding=holding)
            assert known is not None and before.to_act is not None
            lost = given_up(known, card)
            assert lost is not None
            turns += 1
            key = (before.deal_no, before.to_act, card.pretty)  # named as entered: whole here
            if lost > 0:
                worse.add(key)
            if card == judge(known)[0].card:
                coached += 1
                assert key not in mistakes
        in_last = {m for m in mistakes if m[0] == last_deal}
        assert mistakes - in_last == worse
        assert judged >= turns
        listed += len(worse)
    assert listed > 50 and coached > 50


def test_a_game_played_by_the_coach_has_no_pegging_mistake() -> None:
    """Each player lays the coach's card (the hand kept known) on every turn of random deals:
    the review judges every play and lists none."""
    from pegboard.rules.cards import DECK
    from pegboard.rules.events import Deal, Dealt, Go, LaidAway, Starter

    rng = random.Random(8)
    game = Game(("Ann", "Ben"))
    dealer = 0
    for _ in range(6):
        if game.state.winner is not None:
            break
        deck = list(DECK)
        rng.shuffle(deck)
        game.push(Deal(dealer))
        for seat in range(2):
            dealt = tuple(deck[seat * 6:seat * 6 + 6])
            game.push(Dealt(seat, dealt))
            game.push(LaidAway(seat, dealt[:2]))
        game.push(Starter(deck[12]))
        while game.state.phase is Phase.PLAY and game.state.winner is None:
            known = knowledge_for(game.state)
            assert known is not None and known.held  # the hand kept is known
            found = judge(known)
            player = game.state.to_act
            assert player is not None
            game.push(Play(player, found[0].card) if found else Go(player))
        dealer = 1 - dealer  # the show and the crib need no entry: every card is known
    review = lessons(game)
    assert game.state.deal_no >= 3
    assert sum(p.plays for p in review.players) > 20
    assert not [m for m in review.mistakes if m.kind is MistakeKind.PEGGING]
    assert all(p.pegging_loss == 0 for p in review.players)
