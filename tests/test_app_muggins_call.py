"""Muggins is the opponents' skill, from the players' side, through the real ``step``.

In a muggins game the box asks nothing after a claim and keeps the true count to itself: an
opponent who spots a miss calls from the menu ("Muggins: P2", the row right under Back),
there after every claim, right or short, until the next score is pegged (RULES.md, "Muggins").
With teaching on it keeps the open way as a lesson: "P1 missed 2", the opponent first; "No
muggins" is an entry of the record, so a table resumed after a power cut is not asked again; a
count's page comes only once muggins can no longer be called on it.
"""

from __future__ import annotations

import json

from pegboard.app.inputs import KnobTurn, SeatEntry
from pegboard.app.machine import initial_state
from pegboard.app.seat_entry import seat_seq
from pegboard.app.view import PageKind, Screen
from pegboard.app.words import claimed_line
from pegboard.config import Config
from pegboard.rules.events import Claim
from pegboard.rules.state import Reason
from tests.support.app_driver import MENU, OK, UNDO, App


def muggins_game(*, teaching: bool = False) -> App:
    """A 2-player muggins game (P1 and P2), P1 dealing; teaching as asked."""
    app = App.start()
    app.feed(OK)
    rows = list(app.view.lines)
    app.feed(KnobTurn(rows.index("Muggins: off")), OK)
    if teaching:
        rows = list(app.view.lines)
        row = next(i for i, line in enumerate(rows) if line.startswith("Teaching"))
        app.feed(KnobTurn(row - (app.view.selected or 0)), OK)
        assert "Teaching: on" in app.view.lines
    app.feed(KnobTurn(-(app.view.selected or 0)), OK)
    if teaching:
        assert app.view.title == "The basics"  # offered before the first entry
        app.feed(UNDO)
    app.feed(KnobTurn(1), OK)
    return app


def to_the_fifteen(app: App) -> App:
    """Starter 5; P2 leads 10, P1's 5 makes fifteen: her claim is asked for."""
    for label in ("5", "10", "5"):
        app.read()  # the coach's pages, with teaching on
        app.pick(label)
    assert app.view.screen is Screen.CLAIM
    return app


def everything_said(app: App) -> str:
    view = app.view
    return " | ".join([view.title, *view.lines, view.award, view.hint])


def menu_rows(app: App) -> list[str]:
    app.feed(MENU)
    rows = list(app.view.lines)
    app.feed(OK)  # Back
    return rows


def claim(app: App, points: int) -> App:
    """Turn the dial from where it starts to ``points`` and claim them."""
    shown = int(app.view.lines[0].rsplit(":", 1)[1])
    return app.feed(KnobTurn(points - shown), OK)


def test_a_short_claim_asks_nothing_and_says_nothing() -> None:
    app = to_the_fifteen(muggins_game())
    claim(app, 1)  # P1 claims 1 of her 2
    assert app.view.screen is Screen.PLAY  # straight on: no question for the table
    said = everything_said(app)
    assert "missed" not in said and "muggins" not in said.lower()
    assert app.game.scores == (1, 0)
    assert menu_rows(app)[:2] == ["Back", "Muggins: P2"]


def test_a_right_claim_can_be_called_all_the_same_and_the_call_takes_nothing() -> None:
    app = to_the_fifteen(muggins_game())
    claim(app, 2)
    assert menu_rows(app)[:2] == ["Back", "Muggins: P2"]  # the row gives nothing away
    lines = len(app.record)
    app.feed(MENU, KnobTurn(1), OK)
    assert app.view.title == "Muggins"
    assert "P1 missed nothing" in " ".join(app.view.lines)
    app.feed(OK)
    assert app.game.scores == (2, 0) and len(app.record) == lines
    assert app.view.picker is not None  # back on the play


def test_the_call_takes_the_miss_and_says_what_was_right() -> None:
    app = to_the_fifteen(muggins_game())
    claim(app, 1)
    app.feed(MENU, KnobTurn(1), OK)
    assert app.view.title == "Muggins"
    assert app.view.lines == ("P2 takes 1", "P1 missed 1", "(fifteen)")
    muggins = [a for a in app.game.awards if a.reason == Reason.MUGGINS]
    assert [(a.player, a.points) for a in muggins] == [(1, 1)]
    assert json.loads(app.record[-1]) == {"type": "muggins", "player": 1, "points": 1}
    app.feed(OK)
    assert menu_rows(app)[1] != "Muggins: P2"  # taken: nothing more to call


def test_the_window_stays_open_until_the_next_score_is_pegged() -> None:
    app = to_the_fifteen(muggins_game())
    claim(app, 1)
    app.pick("9")  # P2's 9 makes 24: nothing pegged, the call is still open
    assert menu_rows(app)[1] == "Muggins: P2"
    app.pick("7")  # P1's 7 makes 31: a score, waiting for its claim
    assert menu_rows(app)[1] == "Muggins: P2"
    claim(app, 2)  # pegged: the fifteen's miss can no longer be taken
    assert "Muggins: P2" not in menu_rows(app)[2:]
    assert menu_rows(app)[1] == "Muggins: P2"  # the new claim's own window


def to_the_show(app: App) -> App:
    """Starter 5; the play 4 4 7 8 8 K Q 9, every play score claimed in full: the first hand
    waits for its claim."""
    for label in ("5", "4", "4", "7", "8", "8", "K", "Q", "9"):
        app.pick(label)
        while app.view.screen is Screen.CLAIM and \
                app.game.pending_claims[0].reason not in (Reason.HAND, Reason.CRIB):
            claim(app, app.game.pending_claims[0].points)
    return app


def to_the_crib_claim(app: App, *, short: int | None) -> App:
    """The hands still to claim claimed in full (each one's page read once the next claim
    shuts its window), then the crib 2 3 6 J (worth 4) entered; ``short``: the crib then
    claimed that much (None: its claim waits)."""
    while app.game.pending_claims and app.game.pending_claims[0].reason is Reason.HAND:
        claim(app, app.game.pending_claims[0].points)
        app.read()
    for label in ("2", "3", "6", "J"):
        app.pick(label)
    return app if short is None else claim(app, short)


def test_a_hand_claimed_short_shows_no_count_and_the_crib_can_be_called_in_the_next_deal(
) -> None:
    app = to_the_show(muggins_game())
    pending = app.game.pending_claims[0]
    assert pending.reason is Reason.HAND and pending.points > 1
    who = app.game.names[pending.player]
    claim(app, pending.points - 1)
    said = everything_said(app)
    assert app.view.screen is Screen.CLAIM and f"{who}'s hand" not in said
    # The next hand's dial is where every hand's starts (4): it says nothing of the count.
    assert app.view.lines[:1] == ("hand: 4",)
    dealer = app.game.pending_claims[0]
    claim(app, dealer.points)  # the dealer's hand, in full
    # The dealer's claim shut the window on the pone's: her hand's page comes now, with
    # what she said; the dealer's own is kept back while it can be called.
    assert app.view.title == f"{who}'s hand: {pending.points}"
    assert app.view.lines[0] == f"said {pending.points - 1}"
    app.feed(OK)
    # While it can be called, it heads the crib's screen (the wheel says whose crib card).
    assert app.view.screen is Screen.CRIB  # type: ignore[comparison-overlap]
    assert app.view.title == f"P1's hand: claimed {dealer.points}"
    assert app.view.picker is not None and app.view.picker.prompt.startswith("Crib card 1/4")
    to_the_crib_claim(app, short=None)
    crib = app.game.pending_claims[0]
    assert crib.reason is Reason.CRIB
    assert crib.points == 4  # fifteen 2, fifteen 4
    claim(app, 0)
    # The crib's claim shut the window on the dealer's hand, claimed right: no page comes
    # for it (nothing can be called on it now; the award line said it while it could be).
    assert not any(page.count is not None for page in app.pages), app.pages
    # The crib's claim is the deal's last count: the next deal's starter is asked for,
    # with the claim in view.
    assert app.view.screen is Screen.STARTER and app.view.award == "P1's crib: claimed 0"
    assert app.view.title == "P1's crib: claimed 0"  # heading the screen while it is open
    assert [json.loads(line)["type"] for line in app.record[-2:]] == ["claim", "deal"]
    # The call stays open across the deal until the next score is pegged (RULES.md).
    app.pick("7")  # the starter: no heels, nothing pegged
    assert app.view.award == "P1's crib: claimed 0"
    app.feed(MENU, KnobTurn(1), OK)
    assert app.view.lines == ("P2 takes 4", "P1 missed 4", "(crib)")
    assert json.loads(app.record[-1]) == {"type": "muggins", "player": 1, "points": 4}
    # The next deal has begun (its starter is in): the crib's page never comes in it.
    app.feed(OK)
    assert app.view.screen is Screen.PLAY and app.view.picker is not None


def test_the_open_crib_claim_heads_the_starter_after_an_undo_and_a_power_cut() -> None:
    app = to_the_crib_claim(to_the_show(muggins_game()), short=3)
    app.read().pick("7").feed(UNDO)  # the starter entered, then taken back
    assert app.view.screen is Screen.STARTER and app.view.title == "P1's crib: claimed 3"
    resumed = App(initial_state(Config(), resume=app.record))
    resumed.read()
    assert resumed.view.screen is Screen.STARTER
    assert resumed.view.title == "P1's crib: claimed 3"


def test_a_crib_miss_cannot_be_called_once_the_next_deal_pegs_a_score() -> None:
    app = to_the_crib_claim(to_the_show(muggins_game()), short=0)
    app.read()  # the dealer's hand's page, its window shut by the crib's claim
    assert app.view.title == "P1's crib: claimed 0"
    app.feed(MENU, OK)  # the menu and Back: the screen is as it was
    assert app.view.title == "P1's crib: claimed 0"
    app.pick("J")  # the starter: his heels, 2 pegged to the new dealer
    assert "Muggins: P2" not in menu_rows(app)
    assert app.game.pending_muggins is None


def test_teaching_keeps_the_open_way_and_records_no_muggins() -> None:
    app = to_the_fifteen(muggins_game(teaching=True))
    claim(app, 1)
    app.read()
    assert app.view.screen is Screen.CONFIRM
    assert app.view.title == "P1 missed 1"
    assert app.view.lines == ("Muggins 1: P2", "No muggins")
    app.feed(KnobTurn(1), OK)
    assert json.loads(app.record[-1]) == {"type": "muggins", "player": 1, "points": 0}
    assert app.game.pending_muggins is None
    # A power cut now: the game resumed from its record goes on, not asked again.
    resumed = App(initial_state(Config(), resume=app.record))
    resumed.read()
    assert resumed.view.screen is Screen.PLAY
    assert resumed.game.scores == app.game.scores == (1, 0)


def test_a_claim_on_the_award_line_fits_its_21_characters() -> None:
    assert claimed_line("Ann", "crib", 6) == "Ann's crib: claimed 6"
    assert claimed_line("Ann", "hand", 12) == "Ann claimed 12 (hand)"
    assert claimed_line("Margaret", "crib", 12) == "Margaret claimed 12"
    assert claimed_line("Bartholomew Jones", "hand", 29) == "Hand: claimed 29"


def to_the_hand_claim(app: App) -> App:
    """The deal of :func:`tests.test_app_claim_dial.hand_claim` played, every play score
    claimed in full, to P2's hand claim: A 4 7 Q with a 5 turned, worth 4."""
    from pegboard.app.state import Claiming, Reading

    def claim_plays() -> None:
        while isinstance(app.state.screen, Reading):
            app.feed(OK)
        while isinstance(app.state.screen, Claiming) and not app.view.lines[0].startswith(
                "hand"):
            claim(app, app.game.pending_claims[0].points)
            while isinstance(app.state.screen, Reading):
                app.feed(OK)

    for label in ("5", "4", "4", "7", "8", "8", "K", "Q", "9"):
        claim_plays()
        app.pick(label)
    claim_plays()
    assert app.view.title == "P2 claims" and app.game.pending_claims[0].points == 4
    return app


def seen_until(app: App, done: object) -> list[str]:
    """Everything the screen shows, screen by screen, reading pages with OK, until
    ``done(app)``."""
    seen = []
    for _ in range(20):
        seen.append(everything_said(app))
        if done(app):  # type: ignore[operator]
            return seen
        app.feed(OK)
    raise AssertionError(f"never done: {seen}")


def test_teaching_shows_a_count_only_once_muggins_can_no_longer_be_called() -> None:
    """ACC 10: the shared screen never tells the table a claim's true count while an
    opponent may still call muggins on it. P2 claims 2 of the 4 her hand holds: until the
    table answers the question (the lesson names the points missed, as teaching does), no
    screen shows the count of 4 or its fifteens; the count's page, with what was said, comes
    once the window is shut."""
    app = to_the_hand_claim(muggins_game(teaching=True))
    claim(app, 2)
    before = seen_until(app, lambda a: a.view.screen is Screen.CONFIRM)
    assert app.view.title == "P2 missed 2"
    for text in before:
        assert "P2's hand: 4" not in text and "fifteen" not in text, text
    app.feed(KnobTurn(1), OK)  # no muggins: the window is shut
    assert app.game.open_call is None
    assert app.view.title == "P2's hand: 4" and app.view.lines[0] == "said 2"


def test_teaching_keeps_a_right_count_back_too_until_the_next_claim() -> None:
    """A right claim reads the same as a short one while it can be called: its page comes
    with the next claim, which shuts its window."""
    app = to_the_hand_claim(muggins_game(teaching=True))
    claim(app, 4)
    seen = seen_until(app, lambda a: a.view.screen is Screen.CLAIM)
    assert app.view.title == "P1 claims"
    for text in seen:
        assert "P2's hand: 4" not in text and "fifteen" not in text, text
    assert app.game.open_call is not None and app.game.open_call.owner == 1
    claim(app, app.game.pending_claims[0].points)  # P1's hand: P2's window shuts
    assert app.pages[0].title == "P2's hand: 4"
    assert app.pages[0].lines[0].startswith("fifteen")  # said as it is: nothing missed


def pages_seen(app: App) -> list[tuple[str, tuple[str, ...], PageKind | None]]:
    """The pages on screen, read through with OK: each one's title, lines and kind."""
    seen = []
    while app.pages:
        seen.append((app.view.title, app.view.lines, app.view.page))
        app.feed(OK)
    return seen


def counts(seen: list[tuple[str, tuple[str, ...], PageKind | None]],
           ) -> list[tuple[str, tuple[str, ...]]]:
    """The count pages among ``seen``."""
    return [(title, lines) for title, lines, kind in seen if kind is PageKind.COUNT]


def going_on(app: App) -> App:
    """Read every page, answer a teaching muggins question with "No muggins", and claim
    each play score in full, until a card, a hand's or crib's claim is asked for."""
    for _ in range(50):
        if app.pages:
            app.feed(OK)
        elif app.view.screen is Screen.CONFIRM:
            row = list(app.view.lines).index("No muggins")
            app.feed(KnobTurn(row - (app.view.selected or 0)), OK)
        elif app.view.screen is Screen.CLAIM and \
                app.game.pending_claims[0].reason not in (Reason.HAND, Reason.CRIB):
            claim(app, app.game.pending_claims[0].points)
        else:
            return app
    raise AssertionError(f"never settled: {app.view}")


def to_the_crib_entered(app: App, *, short: int = 0) -> App:
    """Starter 5, the play 4 4 7 8 8 K Q 9; P2's hand claimed 1 short, P1's hand in full
    (``short``: that much short), the crib 2 3 6 J entered: the window on P1's hand is open,
    her crib's claim waits."""
    for label in ("5", "4", "4", "7", "8", "8", "K", "Q", "9"):
        going_on(app).pick(label)
    claim(going_on(app), app.game.pending_claims[0].points - 1)
    claim(going_on(app), app.game.pending_claims[0].points - short)
    for label in ("2", "3", "6", "J"):
        going_on(app).pick(label)
    going_on(app)
    assert app.view.screen is Screen.CLAIM and app.game.pending_claims[0].reason is Reason.CRIB
    return app


def test_a_page_kept_back_comes_alike_after_an_undo_and_a_power_cut() -> None:
    """The page of a claim kept back while muggins could be called on it is read off the
    record when the window shuts: an undo or a restart in between shows what an
    uninterrupted game shows (with teaching, its lessons given once a game may come again
    after a restart, so there the count pages are compared)."""
    for teaching in (False, True):
        # A page comes for a hand claimed short, and with teaching for one claimed right
        # (teaching asks "Muggins?" at once on a short claim, which shuts its window).
        short = 0 if teaching else 1
        straight = to_the_crib_entered(muggins_game(teaching=teaching), short=short)
        claim(straight, 4)  # the crib's claim shuts the window on P1's hand
        expected = pages_seen(straight)
        first = counts(expected)[0]
        lines = ("said 1",) * short + ("fifteen 2 (5 K)", "cards: 4 8 K 9")
        assert first[0] == "P1's hand: 2" and first[1][:len(lines)] == lines, expected

        undone = to_the_crib_entered(muggins_game(teaching=teaching), short=short)
        undone.feed(UNDO)  # the crib taken back: the window on P1's hand stays open
        assert undone.game.crib is None and undone.game.open_call is not None
        for label in ("2", "3", "6", "J"):
            undone.pick(label)
        claim(going_on(undone), 4)
        assert pages_seen(undone) == expected

        cut = to_the_crib_entered(muggins_game(teaching=teaching), short=short)
        resumed = App(initial_state(Config(), resume=cut.record))
        resumed.read()  # "Game restored"
        claim(resumed, 4)
        seen = pages_seen(resumed)
        assert counts(seen) == counts(expected)
        if not teaching:
            assert seen == expected


def test_the_crib_page_comes_with_a_call_made_before_the_next_starter() -> None:
    app = to_the_crib_entered(muggins_game())
    claim(app, 3)  # one short
    assert pages_seen(app) == []  # P1's hand was claimed right: no page of it now
    assert app.view.screen is Screen.STARTER  # the next deal dealt, its starter asked
    app.feed(MENU, KnobTurn(1), OK)
    seen = pages_seen(app)
    assert seen[0][:2] == ("Muggins", ("P2 takes 1", "P1 missed 1", "(crib)"))
    assert seen[1][0] == "P1's crib: 4" and seen[1][1][0] == "said 3"
    assert app.view.screen is Screen.STARTER


def test_a_crib_page_never_comes_in_the_next_deal() -> None:
    """Teaching: a crib claimed right stays open to a call across the next deal; once that
    deal has begun its page is not shown at all (it would come in the middle of the play)."""
    app = to_the_crib_entered(muggins_game(teaching=True))
    claim(app, 4)
    titles = [title for title, _, _ in pages_seen(app)]
    assert app.game.open_call is not None and app.game.open_call.claim.reason is Reason.CRIB
    for label in ("7", "5", "10"):  # the starter; P1 leads 5, P2's 10 makes fifteen
        titles.extend(title for title, _, _ in pages_seen(app))
        app.pick(label)
    titles.extend(title for title, _, _ in pages_seen(app))
    assert app.view.screen is Screen.CLAIM
    claim(app, 2)  # a score pegged: the window on the crib is shut
    assert app.game.open_call is not None
    assert app.game.open_call.claim.reason is Reason.FIFTEEN  # type: ignore[comparison-overlap]
    titles.extend(title for title, _, _ in pages_seen(app))
    assert not any("crib: 4" in title for title in titles), titles


def test_a_claim_from_a_phone_keeps_the_count_back_too() -> None:
    """P2 claims her hand from her phone, one short: the box shows no count while P1 may
    call muggins on it; P1's own claim on the box shuts the window, and the page comes."""
    app = to_the_show(muggins_game())
    pending = app.game.pending_claims[0]
    assert pending.player == 1 and pending.reason is Reason.HAND
    app.feed(SeatEntry(1, (Claim(1, pending.points - 1),), seat_seq(app.state.session, 1), 1))
    assert app.game.open_call is not None and app.game.open_call.owner == 1
    assert not any(page.count is not None for page in app.pages), app.pages
    assert "P2's hand: " not in everything_said(app)
    claim(going_on(app), app.game.pending_claims[0].points)
    assert app.view.title == f"P2's hand: {pending.points}"
    assert app.view.lines[0] == f"said {pending.points - 1}"


def test_a_right_claims_page_comes_only_where_it_teaches() -> None:
    """Once its window shuts, a hand claimed right brings no page (nothing can be called on
    it any more, and the award line said the claim while it could be): only a short or an
    over claim's page comes, saying what was said and what was there, and with teaching a
    right one's too, for its breakdown."""
    for short, teaching, titles in ((0, False, []), (1, False, ["P1's hand: 2"]),
                                    (0, True, ["P1's hand: 2"])):
        app = to_the_crib_entered(muggins_game(teaching=teaching), short=short)
        claim(app, 4)  # the crib's claim shuts the window on P1's hand
        seen = [title for title, _ in counts(pages_seen(app))]
        assert seen == titles, (short, teaching, seen)
