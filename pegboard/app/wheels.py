"""The card wheel on each screen that enters cards: which cards it offers, where it starts,
and what each key does to it.

Keys on a wheel: turning moves the highlight; OK enters the highlighted card; holding OK
switches to the highlighted rank's next suit fact ("J, with nobs", "7, in the flush"; after
the last, the card plain again; on a card with no suit fact, "7, plain" at once, entering
nothing); GO, where it means
nothing else, jumps to the next group of ranks (A-5, 6-9, 10-K), and a held GO on the table's
wheel back to the group before. On the keypad a rank key
enters that rank's plain card at once; held, it highlights the rank with its next suit fact.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from pegboard.app import picker, private
from pegboard.app.inputs import Button, InputEvent, KnobTurn, Press, RankKey
from pegboard.app.picker import Slot, WheelChoice
from pegboard.app.state import Wheel
from pegboard.app.suit_facts import SuitFact
from pegboard.app.view import PickerView
from pegboard.rules.cards import DECK, Card, Rank, Suit
from pegboard.rules.events import Starter
from pegboard.rules.facts import SaidGo
from pegboard.rules.state import GameState, Phase, SuitQuestion

Found = tuple[str, list[Slot], int]
"""A wheel on screen: its prompt, its places, and where it starts."""


def once(options_of: Callable[[Rank], list[WheelChoice]]) -> Callable[[Rank], list[WheelChoice]]:
    """``options_of`` with each rank's options worked out once (a wheel asks several times)."""
    known = {rank: options_of(rank) for rank in picker.RANKS}
    return known.__getitem__


def flatten(order: list[Rank], options_of: Callable[[Rank], list[WheelChoice]]) -> list[Slot]:
    """Wheel places for ranks in ``order``."""
    out: list[Slot] = []
    for rank in order:
        out.extend(picker.slots_of(options_of(rank)))
    return out


def first_of(order: list[Rank], options_of: Callable[[Rank], list[WheelChoice]], start: int) -> int:
    """Index on the wheel of the first place of ``order[start]``."""
    return sum(len(picker.slots_of(options_of(rank))) for rank in order[:start])


def pick(wheel: Wheel, event: InputEvent, slots: list[Slot], start: int,
         ) -> tuple[Wheel, WheelChoice | None]:
    """Apply a wheel key; returns the new wheel and the option entered (if any)."""
    if not slots:
        return wheel, None
    index = (wheel.cursor if wheel.cursor is not None else start) % len(slots)
    fact = wheel.fact % len(slots[index])
    if isinstance(event, KnobTurn):
        return Wheel((index + event.steps) % len(slots)), None
    if isinstance(event, Press) and event.button is Button.OK:
        if event.long:
            return Wheel(index, (fact + 1) % len(slots[index]), held=True), None
        return Wheel(), slots[index][fact]
    if isinstance(event, Press) and event.button is Button.GO:
        return jump(wheel, slots, start), None  # GO (a held GO is the table's: back)
    if isinstance(event, RankKey):
        of_rank = [i for i, slot in enumerate(slots) if slot[0].rank is event.rank]
        if not of_rank:
            return wheel, None
        shown = index in of_rank and wheel.cursor is not None and (fact > 0 or len(of_rank) > 1)
        if not event.long:
            # A tap of the key a hold is showing enters what it shows.
            return Wheel(), slots[index][fact] if shown else slots[of_rank[0]][0]
        # The wheel resting on one of several cards of the held rank (a suit step starts on
        # the clubs) shows that card already: the first hold goes on from it, so that it is
        # seen and heard to do something.
        resting = wheel.cursor is None and index in of_rank and len(of_rank) > 1
        return _hold_rank(slots, of_rank, index, fact, shown or resting)
    return wheel, None


def _hold_rank(slots: list[Slot], of_rank: list[int], index: int, fact: int, shown: bool,
               ) -> tuple[Wheel, WheelChoice | None]:
    """A held rank key enters the card with its suit fact ("J, with nobs") as a tap enters the
    plain card. Where the rank has several facts (a jack that may be nobs or in a flush, a last
    card's flush of four or five) the hold asks: it shows the first, the likeliest (nobs),
    said in words, each further hold the next and then the card plain, and a tap of the same
    key (or OK) enters the one shown: a hold never leaves a card half entered that a later key
    would silently replace, and never enters nothing."""
    if shown:
        # Held again: the next suit fact, then the plain card, then the rank's next known card.
        if fact + 1 < len(slots[index]):
            return Wheel(index, fact + 1, held=True), None
        if fact > 0:
            return Wheel(index, 0, held=True), None
        return Wheel(of_rank[(of_rank.index(index) + 1) % len(of_rank)]), None
    target = of_rank[0]
    facts = len(slots[target]) - 1
    if facts == 1 and len(of_rank) == 1:
        return Wheel(), slots[target][1]
    if facts == 0 and len(of_rank) == 1:
        return Wheel(), slots[target][0]  # nothing to choose: the card itself
    return Wheel(target, 1 if facts else 0, held=bool(facts)), None


def jump(wheel: Wheel, slots: list[Slot], start: int, *, back: bool = False) -> Wheel:
    """GO on a wheel: the first card of the next group of ranks (A-5, 6-9, 10-K, round);
    ``back``, of the group before."""
    if not slots:
        return wheel
    index = (wheel.cursor if wheel.cursor is not None else start) % len(slots)
    ranks = [slot[0].rank for slot in slots]
    return Wheel(picker.jump_back_index(ranks, index) if back else
                 picker.jump_index(ranks, index))


def picker_view(prompt: str, slots: list[Slot], wheel: Wheel, start: int,
                empty: tuple[str, ...] = (), *, suitless: bool = False) -> PickerView:
    """The wheel as the screen shows it: each place's card, and the suit facts a hold chose
    on the highlighted one (plain, once a hold went round to the card without any); with no
    place, ``empty``: what it says instead. ``suitless``: a wheel whose suits decide nothing
    (the cut for deal), where a hold says so ("7, suit not needed"), not "plain"."""
    if not slots:
        return PickerView(prompt, (), 0, empty=empty)
    index = (wheel.cursor if wheel.cursor is not None else start) % len(slots)
    labels = [slot[0].label for slot in slots]
    chosen = slots[index][wheel.fact % len(slots[index])]
    labels[index] = chosen.label
    # The plain card a hold went round to is said to be plain; so is a card a hold offers
    # no fact for, so that the hold is seen and heard to answer (and enters nothing).
    plain = wheel.held and chosen.plain
    answer = SuitFact.NOT_NEEDED if suitless else SuitFact.PLAIN
    facts = chosen.facts or ((answer,) if plain else ())
    return PickerView(prompt, tuple(labels), index, facts)


# -- the wheels --------------------------------------------------------------------------------


def plain_wheel(blocked: set[Card], anchor: Rank | None, avoid: set[Suit] | None = None,
                ) -> tuple[list[Slot], int]:
    """Every rank with an unseen card, A..K, starting at ``anchor`` (else the 6); stand-ins
    take the suits in ``avoid`` last."""
    opts = once(lambda r: picker.suit_options(r, blocked, starter=None, avoid=avoid or ()))
    ranks = [r for r in picker.RANKS if opts(r)]
    order, start = picker.natural_order(ranks, anchor)
    return flatten(order, opts), start


def table_wheel(gs: GameState, goes: Sequence[SaidGo], pending: tuple[Card, ...],
                anchor: Rank | None, *, open_hands: bool = False,
                phones: Collection[int] = (), coached: Card | None = None) -> Found | None:
    """The card wheel of the table screen in the engine's phase (None: no card to enter);
    ``open_hands``: the hands are open at this table, so the play's wheel may list them;
    ``phones``: the seats phones hold, whose hands the starter's wheels keep private;
    ``coached``: the card the pegging coach advises, where the play's wheel starts."""
    if gs.asked is not None:
        return suit_wheel(gs.asked, offered_suits(gs, phones))
    if gs.phase is Phase.STARTER:
        return _starter_wheel(gs, anchor, phones)
    if gs.phase is Phase.PLAY and gs.to_act is not None:
        return _play_wheel(gs, goes, gs.to_act, open_hands, coached)
    if gs.phase is Phase.SHOW and gs.to_act is not None:
        return _hand_wheel(gs, gs.to_act, pending, anchor)
    if gs.phase is Phase.CRIB:
        return _crib_wheel(gs, pending, anchor)
    return None


KEYPAD_SUITS: dict[Rank, Suit] = {
    Rank.ACE: Suit.CLUBS, Rank.TWO: Suit.DIAMONDS, Rank.THREE: Suit.HEARTS, Rank.FOUR: Suit.SPADES,
}
"""The starter's suit on the keypad: keys 1 to 4 (the ace's key is the 1), one per suit in
the order the wheel shows them."""


def _starter_wheel(gs: GameState, anchor: Rank | None, phones: Collection[int]) -> Found:
    """The starter's wheel: every rank with a card the table may not rule out, its stand-in
    (the rank entered alone) a card no hand was dealt.

    A card named with its suit could score with a named card of a hand: then holding OK
    (or the rank key) names the starter's suit; the rank alone stays a suit that scores
    nothing. The cards a phone's hand holds are private (:mod:`pegboard.app.private`): the
    wheel offers them like any card not yet seen, and offers the suits whenever a phone's
    hand is in, so neither which suits are offered nor whether any are says anything of a
    hand. Such a card, entered, is refused with :data:`pegboard.app.private.CLASH`."""
    dealt = _dealt_to_others(gs, None)
    hidden = private.phone_cards(gs, phones)
    ruled_out = dealt - hidden  # what the table knows: cards seen, hands entered on the box
    risky = scoring_suits(gs)
    slots, start = plain_wheel(dealt, anchor, risky)
    if hidden:
        # Every rank the table cannot rule out, a rank whose every unseen card a phone's
        # hand holds too (its stand-in is one of them: refused if entered).
        plain = {slot[0].card.rank: slot[0] for slot in slots}
        ranks = [r for r in picker.RANKS
                 if any(Card(r, suit) not in ruled_out for suit in Suit)]
        order, start = picker.natural_order(ranks, anchor)
        slots = [[plain.get(r) or WheelChoice(picker.rank_label(r), next(
            Card(r, suit) for suit in Suit if Card(r, suit) not in ruled_out))] for r in order]
    if risky or hidden:
        slots = [[slot[0], *(WheelChoice(card.pretty, card, plain=False) for card in DECK
                             if card.rank is slot[0].card.rank and card not in ruled_out)]
                 for slot in slots]
    return "Starter", slots, start


def offered_suits(gs: GameState, phones: Collection[int]) -> tuple[Suit, ...]:
    """The suits the box offers when a count asks for the starter's: the engine's (those
    whose card no hand was dealt), and, while a phone's hand is private, also those a phone's
    hand holds (refused if entered), so the question lists no suit a hand lacks."""
    asked = gs.asked
    if asked is None:
        return ()
    hidden = private.phone_cards(gs, phones)
    return tuple(suit for suit in Suit
                 if suit in asked.suits or Card(asked.rank, suit) in hidden)


def suit_wheel(asked: SuitQuestion, suits: Sequence[Suit] | None = None) -> Found:
    """The starter's suit, asked before a count that needs it: one place a suit offered
    (``suits``, else the engine's), clubs to spades, starting on the first. GO jumps two
    places, so every suit is at most two actions away on the encoder (OK; a turn either way,
    or GO, then OK); a keypad enters one with one key (:data:`KEYPAD_SUITS`)."""
    slots = [[WheelChoice(Card(asked.rank, suit).pretty, Card(asked.rank, suit), plain=False)]
             for suit in (asked.suits if suits is None else suits)]
    return f"Starter {picker.rank_label(asked.rank)}: suit?", slots, 0


def suit_keys(asked: SuitQuestion, suits: Sequence[Suit] | None = None) -> str:
    """The keypad's keys for the suits offered (``suits``, else the engine's): "1♣ 2♦ 3♥ 4♠"."""
    number = {suit: str(n) for n, suit in enumerate(KEYPAD_SUITS.values(), start=1)}
    return " ".join(f"{number[suit]}{suit.symbol}"
                    for suit in (asked.suits if suits is None else suits))


def _play_wheel(gs: GameState, goes: Sequence[SaidGo], p: int, open_hands: bool,
                coached: Card | None = None) -> Found:
    room = 31 - gs.count
    # Cards known to be the player's: their dealt cards, or after a renege's take-back the
    # hand the engine already knows (they must lay those very cards again), or the hand kept
    # when the cards laid away were entered.
    held = gs.hands[p]
    allowed = gs.dealt[p] if held is None else tuple(c for c in held if c not in gs.played[p])
    avoid = _flush_suits(gs, p)
    unavailable = gs.seen | _dealt_to_others(gs, p)
    last = len(gs.played[p]) == gs.rules.hand_size() - 1

    # A hand kept private (not an open-handed table) is never listed on the shared screen.
    private = held is not None and gs.laid_away[p] is not None and not open_hands
    hidden = gs.dealt[p] if held is None else (held if private else None)

    @once
    def opts(rank: Rank) -> list[WheelChoice]:
        if hidden is not None:
            return _hidden_options(rank, hidden, gs.played[p], unavailable, gs.starter)
        return picker.suit_options(
            rank, unavailable, starter=gs.starter, group=gs.played[p], allowed=allowed,
            avoid=avoid, last=last, entered=gs.suit_entered,
        )

    ranks = [r for r in picker.RANKS if r.pips <= room and opts(r)]
    order, start = picker.play_order(gs.pile, ranks, _play_weights(gs, goes, p),
                                     held=gs.cards_left[p])
    slots = flatten(order, opts)
    # The coach's card, where the coach names one, is where the player looks first.
    advised = next((i for i, slot in enumerate(slots) if slot[0].card == coached), None)
    if coached is not None and advised is None:
        advised = next((i for i, slot in enumerate(slots)
                        if any(choice.card == coached for choice in slot)), None)
    return (f"{gs.names[p]} plays", slots,
            first_of(order, opts, start) if advised is None else advised)


def _hidden_options(rank: Rank, dealt: Sequence[Card], played: Sequence[Card],
                    unavailable: Collection[Card], starter: Card | None) -> list[WheelChoice]:
    """A rank on the wheel of a player whose dealt cards were entered (to ask for advice): the
    rank alone, as for any player, so the shared screen never lists their hand. It enters
    their very card of that rank; a rank they do not hold enters a stand-in, which the table
    refuses (:func:`held_elsewhere`)."""
    plain = picker.suit_options(rank, unavailable, starter=starter)
    if not plain:
        return []
    mine = [card for card in dealt if card.rank is rank and card not in played]
    return [WheelChoice(picker.rank_label(rank), mine[0] if mine else plain[0].card)]


def held_elsewhere(gs: GameState, card: Card) -> str | None:
    """Why the player to act cannot lay ``card`` when their dealt cards are known and it is
    not one of them, worded without listing the hand (it is on the shared screen)."""
    p = gs.to_act
    if p is None:
        return None
    kept = gs.hands[p] if gs.laid_away[p] is not None else None
    if kept is not None:
        if card in kept:
            return None
        return f"{gs.names[p]} holds no {picker.rank_label(card.rank)}: not one kept"
    if gs.hands[p] is not None:
        return None
    dealt = gs.dealt[p]
    if dealt is None or card in dealt:
        return None
    return f"{gs.names[p]} holds no {picker.rank_label(card.rank)}: not one of the cards dealt"


def rank_words(rank: Rank) -> str:
    """A rank in the plural, as the screen and the voice both read it: "aces", "5s", "10s",
    "kings"."""
    if rank in (Rank.ACE, Rank.JACK, Rank.QUEEN, Rank.KING):
        return f"{rank.spoken}s"
    return f"{picker.rank_label(rank)}s"


def over_31(rank: Rank, count: int) -> str:
    """Why a card of ``rank`` cannot be laid at ``count``: "6 does not fit: 28 and 6 make
    34, over 31"."""
    return (f"{picker.rank_label(rank)} does not fit: {count} and {rank.pips} make "
            f"{count + rank.pips}, over 31")


def lists_hand(gs: GameState, player: int, open_hands: bool) -> bool:
    """Whether the play's wheel offers ``player``'s known hand itself (the hand known after a
    renege's take-back, or kept at an open-handed table), not every rank as for any player
    (a hand kept private is never listed on the shared screen)."""
    held = gs.hands[player]
    return held is not None and (gs.laid_away[player] is None or open_hands)


def no_place(gs: GameState, rank: Rank, pending: Sequence[Card] = (), *,
             open_hands: bool = False) -> str:
    """Why the table's wheel has no place for ``rank`` (a keypad's rank key that can enter
    nothing), in words a player never told the rules can follow: in the play a card too
    big for the count (:func:`over_31`); a rank whose four cards are all in
    (laid, the starter, a hand or crib counted, the cards ``pending`` on the screen); a
    rank the player's known hand lacks, where the wheel lists it (:func:`lists_hand`); else
    a rank whose other cards the table knows are in other hands. None of them lists a hand:
    the starter's wheel offers every card a phone's hand may hold, and the play's wheel
    every rank to a player whose hand is private."""
    label = picker.rank_label(rank)
    p = gs.to_act
    if gs.phase is Phase.PLAY and p is not None and gs.count + rank.pips > 31:
        return over_31(rank, gs.count)
    gone = set(gs.seen) | set(pending) | named_starter(gs)
    if gs.phase is Phase.CRIB:
        gone |= set(crib_laid_away(gs))
    if all(Card(rank, suit) in gone for suit in Suit):
        return f"all four {rank_words(rank)} are already in"
    if gs.phase is Phase.PLAY and p is not None and lists_hand(gs, p, open_hands):
        why = "not one kept" if gs.laid_away[p] is not None else "their cards are known"
        return f"{gs.names[p]} holds no {label}: {why}"
    if gs.phase is Phase.SHOW and p is not None and gs.dealt[p] is not None:
        return f"{gs.names[p]} was dealt no {label}"
    if gs.phase is Phase.STARTER:
        return f"no {label} can be the starter: every {label} was dealt to a hand"
    return f"no {label} is left: the others are in the players' hands"


NO_CARD_FITS = ("No card fits", "GO says go")
"""What the play's wheel says when it offers no card: the player's known hand has none that
fits, or every card that would fit is in already (a go is all there is to enter)."""


def no_card_words(gs: GameState, *, open_hands: bool = False) -> str:
    """Why OK on a wheel offering no card enters nothing, as a notice: in the play, that no
    card of the player's fits (where the wheel lists their hand, :func:`lists_hand`) or no
    card left does, and GO says go ("No card of Ann's fits at 28: GO says go")."""
    p = gs.to_act
    if gs.phase is Phase.PLAY and p is not None:
        whose = f"of {gs.names[p]}'s" if lists_hand(gs, p, open_hands) else "left"
        return f"No card {whose} fits at {gs.count}: GO says go"
    return "No card can be entered here"


def held_go(gs: GameState, player: int) -> str | None:
    """Why ``player`` may not say go when the hand they kept is known (the cards laid away
    entered) and one of its cards fits, worded without listing the hand (None: they may)."""
    kept = gs.hands[player] if gs.laid_away[player] is not None else None
    if kept is None or not any(c not in gs.played[player] and gs.count + c.pips <= 31
                               for c in kept):
        return None
    return (f"{gs.names[player]} holds a card that fits at {gs.count}: play it (a go now "
            "would be a renege)")


def named_starter(gs: GameState) -> frozenset[Card]:
    """The starter as its suit was named when a count asked for it (none: not asked): the
    card the counts are made with from then on, so a stand-in for a card of the crib or a
    hand is never that card (its rank alone was entered with another suit)."""
    turned = gs.turned
    if turned is None or turned.suit is None:
        return frozenset()
    return frozenset({Card(turned.rank, turned.suit)})


def _hand_wheel(gs: GameState, p: int, pending: tuple[Card, ...], anchor: Rank | None) -> Found:
    group = pending or gs.played[p]
    seen = gs.seen | set(group) | named_starter(gs)
    size = gs.rules.hand_size()

    @once
    def opts(rank: Rank) -> list[WheelChoice]:
        return picker.suit_options(
            rank, seen, starter=gs.starter, group=group, allowed=gs.dealt[p],
            last=len(group) == size - 1, entered=gs.suit_entered,
        )

    ranks = [r for r in picker.RANKS if opts(r)]
    order, start = picker.natural_order(ranks, anchor)
    prompt = f"{gs.names[p]}'s hand {len(group) + 1}/{size}"
    return prompt, flatten(order, opts), first_of(order, opts, start)


def crib_laid_away(gs: GameState) -> tuple[Card, ...]:
    """The crib's cards the engine knows already: those laid away by the seats that entered
    them (a phone's seat, a teaching game's hand). The crib's entry holds them without
    asking the box for them: only the rest is entered on the wheel, and the wheel never
    lists them (a phone's cards laid away are private until the crib is counted)."""
    return tuple(card for away in gs.laid_away if away is not None for card in away)


def _crib_wheel(gs: GameState, pending: tuple[Card, ...], anchor: Rank | None) -> Found:
    laid = crib_laid_away(gs)
    pending = (*laid, *pending)
    seen = gs.seen | set(pending) | named_starter(gs)
    known = [c for d in gs.dealt if d is not None for c in d if c not in seen]
    stand_in_seen = seen | _dealt_to_others(gs, None)

    starter, no_flush = _crib_flush_starter(gs, (*pending, *known))

    @once
    def opts(rank: Rank) -> list[WheelChoice]:
        # A laid-away card already known from the dealt cards is that very card.
        exact = [WheelChoice(c.pretty, c) for c in known if c.rank is rank]
        if exact:
            return exact[:1]
        found = picker.suit_options(rank, stand_in_seen, starter=starter, group=pending,
                                    crib=True)
        return [o for o in found if not (no_flush and _flushes(o.facts))]

    ranks = [r for r in picker.RANKS if opts(r)]
    order, start = picker.natural_order(
        ranks, anchor if anchor is not None else picker.CRIB_START_RANK)
    prompt = f"Crib card {len(pending) + 1}/4"
    return prompt, flatten(order, opts), first_of(order, opts, start)


def _crib_flush_starter(gs: GameState, crib: Sequence[Card]) -> tuple[Card | None, bool]:
    """The starter the crib's wheel offers its flush with, and whether it offers none.

    A crib flush needs the starter's suit. Entered by its rank alone, the starter's
    stand-in suit serves while every crib card is entered by rank too (the suits are all
    the table's word); but where cards of the crib were named with their suits (dealt hands
    entered), the flush can only be theirs: the wheel offers it in their suit, and the engine
    then asks the starter's suit the flush needs, as GO on the crib's page does
    (docs/rules.md, "The starter"). Named cards of two suits, or that suit's card of the
    starter's rank already seen, make no flush: none is offered."""
    named = {c for d in gs.dealt if d is not None for c in d}
    ours = [c for c in crib if c in named]
    if gs.starter is None or gs.starter_suit_known or not ours:
        return gs.starter, False
    suits = {c.suit for c in ours}
    if len(suits) != 1 or not gs.asks_suit:
        return gs.starter, True
    suit = suits.pop()
    starter = Card(gs.starter.rank, suit)
    if starter != gs.starter and (starter in named or starter in gs.seen):
        return gs.starter, True
    return starter, False


def _flushes(facts: tuple[SuitFact, ...]) -> bool:
    """Whether a card's suit facts make (or keep going) a flush."""
    return any(fact not in (SuitFact.PLAIN, SuitFact.NOBS) for fact in facts)


def scoring_suits(gs: GameState) -> set[Suit]:
    """The starter's suits that could score with cards named with their suits (dealt hands
    entered for advice): a named jack's (his nobs), one a player holds enough of for a hand's
    flush, or one every player could lay away for a crib flush. When there are any, the
    starter's suit may be named; entered by rank alone, its stand-in suit avoids them and
    scores nothing with named cards (docs/rules.md, "The starter")."""
    named = [dealt for dealt in gs.dealt if dealt is not None]
    suits = {card.suit for dealt in named for card in dealt if card.rank is Rank.JACK}
    keep = gs.rules.hand_size()
    away = gs.rules.dealt_size(gs.players) - keep

    def most(cards: tuple[Card, ...], suit: Suit) -> int:
        return sum(card.suit is suit for card in cards)

    # A crib flush needs every crib card named (the pack's card at three is a stand-in).
    every = bool(named) and len(named) == gs.players and gs.players != 3
    for suit in Suit:
        if any(most(dealt, suit) >= keep for dealt in named) or (
            every and all(most(dealt, suit) >= away for dealt in named)
        ):
            suits.add(suit)
    return suits


def _dealt_to_others(gs: GameState, player: int | None) -> set[Card]:
    """Cards known to be in other players' dealt hands (stand-ins must not take them)."""
    return {
        c for q, dealt in enumerate(gs.dealt) if dealt is not None and q != player for c in dealt
    }


def _flush_suits(gs: GameState, player: int) -> set[Suit]:
    """Suits the other players' hands are still following (they may flush in them)."""
    return {
        cards[0].suit for q, cards in enumerate(gs.played)
        if q != player and cards and len({c.suit for c in cards}) == 1
    }


def _play_weights(gs: GameState, goes: Sequence[SaidGo], player: int) -> dict[Rank, float]:
    """How likely each rank is to be ``player``'s card: by the copies not yet seen, and
    nearly never a rank that fitted when the player said go earlier this deal (they held
    none; only a renege would show one)."""
    room = _go_room(goes, player)
    seen: dict[Rank, int] = {}
    for card in gs.seen:
        seen[card.rank] = seen.get(card.rank, 0) + 1
    return {
        r: (4 - seen.get(r, 0)) / 4 * (0.05 if room is not None and r.pips <= room else 1.0)
        for r in picker.RANKS
    }


def last_starter(events: Sequence[object]) -> int:
    """The position of this deal's starter entry (-1 before any): found from the end, so the
    cost is the deal's length, not the match's."""
    return next((i for i in range(len(events) - 1, -1, -1) if isinstance(events[i], Starter)),
                -1)


def _go_room(goes: Sequence[SaidGo], player: int) -> int | None:
    """The smallest room under 31 at which ``player`` said go this deal, if they did (the
    engine reports each go with the count it was said at)."""
    rooms = [31 - go.count for go in goes if go.player == player]
    return min(rooms) if rooms else None

