"""The pegging coach with what the box knows: the player's own discards and the cards seen are
nobody else's, the next player's cards left decide the go and the last card, and the note
after a play says what it gave away or missed. Every statement is checked by the scorer over
random deals played through the engine."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from fractions import Fraction

from pegboard.coach.knowledge import Knowledge, OwnCards, knowledge_for
from pegboard.coach.lookahead import card_line, coach_line, count_line, judge, play_note
from pegboard.rules.cards import DECK, Card, Rank, parse_cards
from pegboard.rules.events import Play
from pegboard.rules.game import Game
from pegboard.rules.pegging import score_play
from pegboard.rules.speech import say_play
from pegboard.rules.state import GameState, Phase
from tests.support.games import random_game

SEEDS = range(4)


def turns() -> Iterator[tuple[GameState, Card]]:
    """Every turn in the play of random games with the dealt cards entered, two and three
    players: the state before the card, and the card laid."""
    for before, card, _ in kept_turns(SEEDS):
        yield before, card


def kept_turns(seeds: Iterable[int], players: int | None = None,
               ) -> Iterator[tuple[GameState, Card, tuple[Card, ...]]]:
    """Every turn as :func:`turns`, with the cards the player then held (their hand as it
    became known in the show; turns of a deal the game ended in are left out)."""
    for seed in seeds:
        made = random_game(seed, players or 2 + seed % 2, dealt=True)
        full = Game.from_header(made.header)
        hands: dict[tuple[int, int, int], tuple[Card, ...]] = {}
        for event in made.events:
            full.push(event)
            state = full.state
            for seat, hand in enumerate(state.hands):
                if hand is not None:
                    hands[(state.game_no, state.deal_no, seat)] = hand
        game = Game.from_header(made.header)
        for event in made.events:
            before = game.state
            if isinstance(event, Play) and before.phase is Phase.PLAY:
                hand = hands.get((before.game_no, before.deal_no, event.player))
                if hand is not None:
                    played = before.played[event.player]
                    yield before, event.card, tuple(c for c in hand if c not in played)
            game.push(event)


def _label(rank: Rank) -> str:
    return "10" if rank is Rank.TEN else rank.symbol


def _card(rank_text: str, known: Knowledge) -> Card:
    """The first card of that rank the player holds."""
    return next(c for c in known.held if _label(c.rank) == rank_text)


def test_the_box_knows_the_dealt_cards_and_nothing_seen_is_an_answer() -> None:
    checked = 0
    for before, card in turns():
        known = knowledge_for(before)
        assert known is not None and known.own is OwnCards.DEALT
        player = before.to_act
        assert player is not None
        dealt = set(before.dealt[player] or ())
        assert card in known.cards and set(known.cards) <= dealt
        assert known.holds == before.cards_left[player]
        unseen = set(known.unseen())
        assert not unseen & dealt  # the player's own discards are nobody's answer
        assert not unseen & set(before.seen)  # nor any card seen this deal
        checked += 1
    assert checked > 200


def test_every_line_and_note_is_what_the_scorer_says() -> None:
    lines = notes = only = 0
    for before, played, holding in kept_turns(SEEDS):
        known = knowledge_for(before, holding=holding)
        assert known is not None and known.own is OwnCards.KEPT
        line = coach_line(known, open_hand=True)
        assert line == card_line(known)
        found = judge(known)
        assert (line is None) == (not found)
        if line is not None:
            lines += 1
            lay = re.match(r"Lay (\w+): (.*)$", line)
            assert lay is not None, line
            card = found[0].card  # the line names its rank
            assert _card(lay.group(1), known).rank is card.rank
            assert known.count + card.pips <= 31
            rest = lay.group(2)
            laid = (*known.pile, card)
            now = score_play(laid)
            count = sum(c.pips for c in laid)
            if now.total:
                assert rest == say_play(now, count).lower()
            elif rest.endswith(("the go is yours", "last card is yours")):
                fits = [c for c in known.unseen() if count + c.pips <= 31]
                assert known.next_left == 0 or not fits
                assert rest.endswith("last card is yours") == (known.next_left == 0)
            elif " back, your " in rest:
                trap = found[0].trap
                assert trap is not None
                answer, own, said = trap
                assert rest.endswith(f" back, your {_label(own.rank)} makes {said}")
                assert own in known.held and own != card
                reply = next(c for c in known.unseen() if c.rank is answer)
                after = (*laid, reply, own)
                assert said == say_play(score_play(after), sum(c.pips for c in after)).lower()
                assert score_play(after).total > 0
            elif rest in (f"your last card, to {count}", f"the only card that fits, to {count}"):
                assert len(found) == 1  # no other card fits under 31
                assert rest.startswith("your last card") == (len(known.held) == 1)
                only += 1
            else:
                assert rest == f"to {count}, the least they can score back", rest
                assert len(found) > 1
        note = play_note(known, played, open_hand=True)
        if note is None:
            continue
        notes += 1
        chosen = next(a for a in found if a.card == played)
        assert found[0].value - chosen.value >= 1  # a note only for a point or more
        if note.startswith("Missed: "):
            missed = re.fullmatch(r"Missed: your (\w+) made (.*)", note)
            assert missed is not None, note
            better, said = missed.groups()
            laid = (*known.pile, _card(better, known))
            assert said == say_play(score_play(laid), sum(c.pips for c in laid)).lower()
            assert score_play(laid).total > score_play((*known.pile, played)).total
        elif note.startswith("Gave away: "):
            gave = re.match(r"Gave away: an? (\w+) back made (.*);", note)
            assert gave is not None, note
            named, said = gave.groups()
            reply = next(c for c in known.unseen() if _label(c.rank) == named)
            after = (*known.pile, played, reply)
            assert said == say_play(score_play(after), sum(c.pips for c in after)).lower()
        closed = play_note(known, played, open_hand=False)  # names no card still held
        if closed is not None:
            gave = re.fullmatch(r"Gave away: an? (\w+) back made ([^;]*)", closed)
            assert gave is not None, closed
            named, said = gave.groups()
            reply = next(c for c in known.unseen() if _label(c.rank) == named)
            after = (*known.pile, played, reply)
            assert said == say_play(score_play(after), sum(c.pips for c in after)).lower()
    assert lines > 200 and notes > 10 and only > 10


def test_with_the_next_player_out_of_cards_the_last_card_is_the_players() -> None:
    """20 on the pile, the player holds an ace and a 9, the next player has no cards left:
    whatever is laid, the player lays on and takes the last card (laying the ace first keeps
    the 9 for later, the lower card on a tie); with cards left, the ace invites a 10 for 31."""
    pile = tuple(parse_cards("KC QD"))
    cards = tuple(parse_cards("AS 9H"))
    out = Knowledge.kept(pile, cards, next_left=0)
    assert card_line(out) == "Lay A: at 21 nobody can answer, last card is yours"
    assert [a.value for a in judge(out)] == [1, 1]  # 30 and the last card
    still = Knowledge.kept(pile, cards, next_left=4)
    assert card_line(still) != card_line(out)
    assert min(a.value for a in judge(still)) < 1


def test_an_unknown_discard_counts_only_as_often_as_it_may_be_held() -> None:
    """Six dealt cards known, four held: the pair royal a 7 would make counts only for the
    holdings that keep the other 7, so the coach weighs it below a hand that surely has it."""
    sure = Knowledge.kept((), parse_cards("7H 7S 2C 3D"), next_left=4)
    maybe = Knowledge(OwnCards.DEALT, tuple(parse_cards("7H 7S 2C 3D KH QS")), 4, (),
                      next_left=4)
    seven = parse_cards("7H")[0]

    def value(known: Knowledge) -> Fraction:
        return next(a.value for a in judge(known) if a.card == seven)

    assert value(maybe) < value(sure)


def test_knowledge_says_what_is_known_of_the_players_own_cards() -> None:
    """Dealt cards entered, hand not known: DEALT, holding as many as are left, nothing held
    for sure; the same turn with the hand given (as the review learns it in the show): KEPT,
    the discards seen; with neither: NOTHING."""
    from pegboard.coach.knowledge import OwnCards, knowledge_for
    from pegboard.rules.value import replace

    checked = 0
    for before, card in turns():
        player = before.to_act
        assert player is not None
        dealt = before.dealt[player]
        assert dealt is not None
        if before.hands[player] is not None:
            continue
        known = knowledge_for(before)
        assert known is not None and known.own is OwnCards.DEALT and known.held == ()
        assert known.holds == before.cards_left[player] < len(known.cards)
        assert set(known.cards) == set(dealt) - set(before.played[player])
        holding = tuple(c for c in known.cards if c == card) + tuple(
            c for c in known.cards if c != card)[:known.holds - 1]
        kept = knowledge_for(before, holding=holding)
        assert kept is not None and kept.own is OwnCards.KEPT and kept.held == holding
        away = set(dealt) - set(holding) - set(before.played[player])
        assert away <= set(kept.seen) and not away & set(kept.unseen())
        assert (kept.pile, kept.next_left) == (known.pile, known.next_left)
        blind = replace(before, dealt=tuple(None for _ in before.dealt))
        nothing = knowledge_for(blind)
        assert nothing is not None and nothing.own is OwnCards.NOTHING and nothing.cards == ()
        checked += 1
    assert checked > 100


def test_a_closed_hand_known_is_still_not_shown() -> None:
    """The hand kept known, in a closed game: the line is the count's, as for anyone; open,
    the card to lay."""
    for before, _, holding in kept_turns(range(2)):
        known = knowledge_for(before, holding=holding)
        assert known is not None
        assert coach_line(known, open_hand=False) == count_line(before.pile)
        assert coach_line(known, open_hand=True) == card_line(known)


def test_what_the_count_offers_is_what_the_scorer_says() -> None:
    """Each "At N: R for ..." names a rank that scores that on the pile, and no rank scores
    more; "nothing scores" and "avoid N" only where no rank scores, N a count a ten-card
    makes 15 or 31 from."""
    rng_piles = [tuple(parse_cards(text)) for text in (
        "5H", "3C 5D", "KC QD", "KC 8D", "7C 7D", "3C 4D", "KC QD 5H", "KC QD 9H", "TC 2D",
        "JC 5D", "2C 2D", "KC 9D", "AC 2C", "KC QC JC", "9C 8D 6H")]
    import random
    rng = random.Random(3)
    for _ in range(300):
        laid: list[Card] = []
        for card in rng.sample(DECK, 5):
            if sum(c.pips for c in laid) + card.pips <= 31 and rng.random() < 0.7:
                laid.append(card)
        rng_piles.append(tuple(laid))
    for pile in rng_piles:
        line = count_line(pile)
        count = sum(c.pips for c in pile)
        best = max((score_play((*pile, c)).total for c in DECK
                    if c not in pile and count + c.pips <= 31), default=0)
        if not pile:
            assert line == "Lead: under 5, no 15"
            continue
        said = re.fullmatch(r"At (\d+): (\w+) for (.*)", line)
        if said is None:
            assert best == 0
            avoid = re.fullmatch(r"At (\d+): (?:nothing scores|avoid (5|21))", line)
            assert avoid is not None and int(avoid.group(1)) == count, line
            if avoid.group(2):
                assert count < int(avoid.group(2)) <= count + 10
            continue
        assert int(said.group(1)) == count
        card = next(c for c in DECK if _label(c.rank) == said.group(2) and c not in pile)
        made = score_play((*pile, card))
        assert made.total == best > 0, line
        what = said.group(3)
        if len(made.items) > 1:
            assert what == f"{best} points"
        else:
            kind = made.items[0].kind
            assert what in (kind, f"a {kind}", "15" if kind == "fifteen" else "31"), line
