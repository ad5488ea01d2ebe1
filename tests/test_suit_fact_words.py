"""Suit facts typed on the wheel and worded alike everywhere (issues 31 and 36): what a hold
sets on a card is a :class:`SuitFact` on the picker's view, never a label's words; the OLED,
the simulator's 80x24 text and the voice each word it ("J: with nobs", "> J, with nobs <",
"jack, with nobs"). A held OK on a jack offers his nobs first (far likelier than a flush), a
hold that went round says "plain", a held keypad key with two facts asks (the likeliest shown
and said, a tap enters it) and one with a single fact enters it, says it and shows it in the
same words until the next entry; GO on a claim says what it set and what GO sets next, with
nothing else."""

from __future__ import annotations

from pegboard.app.effects import FactsEntered
from pegboard.app.inputs import Button, KnobTurn, Press, RankKey
from pegboard.app.suit_facts import SuitFact
from pegboard.app.view import PageKind, Screen, View
from pegboard.config import VoiceConfig
from pegboard.rules.cards import Rank
from pegboard.rules.value import replace
from pegboard.sim.terminal import words_below
from pegboard.ui.render import fact_line, render
from pegboard.voice.hook import Transcript, VoiceHook
from pegboard.voice.phrases import speakable
from tests.support.announcing import changes_of
from tests.support.app_driver import HOLD_OK, OK, App

GO = Press(Button.GO)


class Heard:
    """An app in audio mode and what its voice said, key by key."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.transcript = Transcript()
        self.hook = VoiceHook(self.transcript)
        self.hook.heard(app.state, app.view, (), first=True)

    def feed(self, *events: object) -> list[str]:
        """Feed each key; the words said (sounds left out) after the last."""
        said: list[str] = []
        for event in events:
            before = len(self.transcript.texts())
            self.app.feed(event)  # type: ignore[arg-type]
            self.hook.heard(self.app.state, self.app.view, self.app.effects,
                            changes_of(self.app.effects))
            said = [t for t in self.transcript.texts()[before:] if not t.startswith("[")]
        return said


def audio_game(kit: str = "encoder") -> App:
    """A 2-player game in audio mode, P1 dealing, to its starter."""
    app = App.start(kit, voice=VoiceConfig(audio=True))
    app.feed(OK)  # New game
    while app.view.selected != 0:
        app.feed(KnobTurn(1) if kit == "encoder" else GO)
    app.feed(OK)  # Start
    app.feed(KnobTurn(1) if kit == "encoder" else GO, OK)  # P1 deals
    return app


def jack_after_a_two(kit: str = "encoder") -> App:
    """P2 has laid a 2 and P1 an ace (starter 5 by its rank): P2's jack may be his nobs, in
    the flush of the 2, or both."""
    app = audio_game(kit)
    app.pick("5")
    app.pick("2")
    app.pick("A")
    return app


def panel(view: View) -> str:
    return " ".join(words_below(view, view.sides, view.target, rows=4, width=80))


def test_a_held_ok_on_a_jack_offers_nobs_first_then_the_flush_then_both_then_plain() -> None:
    app = jack_after_a_two()
    pv = app.view.picker
    assert pv is not None
    app.feed(KnobTurn(pv.options.index("J") - pv.index))
    seen = []
    for _ in range(4):
        app.feed(HOLD_OK)
        pv = app.view.picker
        assert pv is not None and pv.candidate == "J"  # the label is the card alone
        seen.append(pv.facts)
    assert seen == [(SuitFact.NOBS,), (SuitFact.IN_FLUSH,),
                    (SuitFact.NOBS, SuitFact.IN_FLUSH), (SuitFact.PLAIN,)]


def test_the_oled_the_text_panel_and_the_voice_word_the_same_fact() -> None:
    app = jack_after_a_two()
    heard = Heard(app)
    pv = app.view.picker
    assert pv is not None
    heard.feed(KnobTurn(pv.options.index("J") - pv.index))
    said = heard.feed(HOLD_OK)
    pv = app.view.picker
    assert pv is not None and pv.facts == (SuitFact.NOBS,)
    assert said == ["jack, with nobs"]
    assert fact_line(pv, 21) == "J: with nobs"
    assert "P2 plays: > J, with nobs <" in panel(app.view)
    assert heard.feed(HOLD_OK) == ["jack, in the flush"]
    assert heard.feed(HOLD_OK) == ["jack, with nobs, in the flush"]
    assert heard.feed(HOLD_OK) == ["jack, plain"]
    assert "> J, plain <" in panel(app.view)
    heard.feed(HOLD_OK)
    heard.feed(OK)  # entered with his nobs
    starter = app.game.starter
    assert starter is not None and app.game.played[1][-1].suit is starter.suit


def test_a_held_ok_on_a_card_with_no_suit_fact_answers_and_enters_nothing() -> None:
    """P2's lead after the starter: a 7 can be in no flush and is no jack. Each hold says and
    shows it plain (the first with the tone of a key taken, each later one, which changes
    nothing, with the refusal's), enters nothing, and OK then lays the 7."""
    app = audio_game()
    app.pick("5")
    heard = Heard(app)
    pv = app.view.picker
    assert pv is not None
    heard.feed(KnobTurn(pv.options.index("7") - pv.index))
    record, game = list(app.record), app.game
    for _ in range(3):
        before = len(heard.transcript.texts())
        assert heard.feed(HOLD_OK) == ["7, plain"]
        sounds = [t for t in heard.transcript.texts()[before:] if t.startswith("[")]
        assert sounds == (["[ok]"] if _ == 0 else ["[refused]"])
        pv = app.view.picker
        assert pv is not None and pv.facts == (SuitFact.PLAIN,) and pv.candidate == "7"
        assert fact_line(pv, 21) == "7: plain"
        assert "P2 plays: > 7, plain <" in panel(app.view)
        assert list(app.record) == record and app.game == game
    heard.feed(OK)
    assert [card.rank for card in app.game.played[1]] == [Rank.SEVEN]


def test_a_held_keypad_jack_with_two_facts_asks_and_a_tap_enters_the_one_said() -> None:
    app = jack_after_a_two("keypad")
    heard = Heard(app)
    said = heard.feed(RankKey(Rank.JACK, long=True))
    assert said == ["jack, with nobs"] and len(app.game.played[1]) == 1  # asked, not entered
    assert heard.feed(RankKey(Rank.JACK, long=True)) == ["jack, in the flush"]
    heard.feed(RankKey(Rank.JACK))
    played = app.game.played[1]
    assert len(played) == 2 and played[1].rank is Rank.JACK
    assert played[1].suit is played[0].suit  # in the flush of the 2


def test_a_held_keypad_jack_with_one_fact_is_entered_and_its_fact_said() -> None:
    app = audio_game("keypad")
    app.pick("5")
    heard = Heard(app)
    said = heard.feed(RankKey(Rank.JACK, long=True))
    starter = app.game.starter
    assert starter is not None and app.game.played[1] == (app.game.played[1][0],)
    assert app.game.played[1][0].suit is starter.suit
    assert FactsEntered("J", (SuitFact.NOBS,)) in app.effects
    assert said[-2:] == ["P2, jack: ten", "jack, with nobs"] or "jack, with nobs" in said, said


def test_a_card_a_held_key_entered_is_shown_in_the_words_the_voice_says() -> None:
    """The keypad's held J with its only fact: the OLED's bottom line and the 80x24 text
    panel show "J, with nobs", the words the voice says (one wording), until the next entry
    (a turn of the wheel keeps it), and a tap enters nothing of the kind."""
    app = audio_game("keypad")
    app.pick("5")
    heard = Heard(app)
    said = heard.feed(RankKey(Rank.JACK, long=True))
    assert app.view.screen is Screen.PLAY and app.view.entered == "J, with nobs"
    assert speakable(app.view.entered) in said  # "jack, with nobs": the same words
    assert "J, with nobs" in panel(app.view)
    shown = render(app.view)
    assert shown.tobytes() == render(replace(app.view, entered="", award="J, with nobs")
                                     ).tobytes()  # drawn on the bottom line, as an award
    assert shown.tobytes() != render(replace(app.view, entered="")).tobytes()
    heard.feed(KnobTurn(1))  # P1 turns the wheel: still in view
    assert app.view.entered == "J, with nobs"
    app.rank(Rank.KING)  # P1's card, the next entry: the table has moved on
    assert app.view.entered == "" and "with nobs" not in panel(app.view)
    assert FactsEntered not in map(type, app.effects)


def test_a_crib_card_a_held_key_entered_shows_on_the_count_it_brings() -> None:
    """The crib's last card held (a J, the starter 5 by rank): the crib's count page says
    what the hold set on the jack, on the OLED (its suits line) and the text panel, as the
    voice says it."""
    app = audio_game("keypad")
    for rank in (Rank.FIVE, Rank.KING, Rank.ACE, Rank.TWO, Rank.ACE, Rank.THREE, Rank.ACE,
                 Rank.FOUR, Rank.TWO):
        app.rank(rank)
    while app.view.screen is not Screen.CRIB:
        app.feed(OK)
    for rank in (Rank.SIX, Rank.SEVEN, Rank.EIGHT):
        app.rank(rank)
    heard = Heard(app)
    said = heard.feed(RankKey(Rank.JACK, long=True))
    assert app.view.page is PageKind.COUNT and app.view.entered == "J, with nobs"
    assert "jack, with nobs" in said
    assert "J, with nobs" in panel(app.view)
    # On the OLED the count's own lines say it ("suits: with nobs"), and the bottom line
    # keeps what GO would add.
    assert "suits: with nobs" in app.view.lines
    assert render(app.view).tobytes() == render(replace(app.view, entered="")).tobytes()


def test_go_on_a_claim_says_what_it_set_and_what_go_sets_next() -> None:
    """A muggins game: P2 holds 2 4 6 J (starter 5 by rank); on P2's claim GO sets the next
    suit fact, said as set with the one after it, the number typed kept."""
    app = App.start("keypad", voice=VoiceConfig(audio=True))
    app.feed(OK)
    while app.view.lines[app.view.selected or 0] != "7 Muggins: off":
        app.feed(GO)
    app.feed(OK)
    while app.view.lines[app.view.selected or 0] != "1 Start":
        app.feed(GO)
    app.feed(OK, GO, OK)  # P1 deals
    heard = Heard(app)
    for rank in (Rank.FIVE, Rank.TWO, Rank.ACE, Rank.FOUR, Rank.ACE, Rank.SIX, Rank.ACE,
                 Rank.JACK, Rank.TWO):
        heard.feed(RankKey(rank))
    while app.view.title != "P2 claims":
        heard.feed(OK)
    first = app.view.suits
    assert first[0] == "suits: plain" and first[1].startswith("GO: ")
    heard.feed(RankKey(Rank.SEVEN))
    said = heard.feed(GO)
    now = app.view.suits
    assert now[0] == "suits: " + first[1].removeprefix("GO: ")  # what GO said it would set
    assert said == [f"{now[0]}. {now[1]}"]  # that, and what GO sets next: nothing else
    assert app.view.lines[0].endswith(": 7")  # the number typed is kept


def test_a_held_ok_on_the_cut_says_the_suit_is_not_needed_and_ok_cuts() -> None:
    """The cut for deal: the lowest rank deals and a suit breaks no tie, so a held OK says
    that the suit is not needed ("6, suit not needed", on the screen "6: suit not needed"),
    never "plain" (which speaks of a flush and nobs); it enters nothing, and OK then cuts
    the card the wheel is on."""
    app = App.start(voice=VoiceConfig(audio=True))
    app.feed(OK)  # New game
    while app.view.selected != 0:
        app.feed(KnobTurn(1))
    app.feed(OK, OK)  # Start, then cut for deal (the default)
    assert app.view.title == "Cut for deal"
    heard = Heard(app)
    pv = app.view.picker
    assert pv is not None
    heard.feed(KnobTurn(pv.options.index("6") - pv.index))
    record = list(app.record)
    said = heard.feed(HOLD_OK)
    assert said == ["6, suit not needed"], said
    pv = app.view.picker
    assert pv is not None and pv.facts == (SuitFact.NOT_NEEDED,) and pv.candidate == "6"
    assert fact_line(pv, 21) == "6: suit not needed"
    assert "plain" not in panel(app.view) and "> 6, suit not needed <" in panel(app.view)
    assert list(app.record) == record and app.view.title == "Cut for deal"
    heard.feed(OK)
    assert app.view.lines[:1] == ("P1: 6",), app.view
