"""The talking table at table pace (docs/voice.md, "At table pace"): seeded whole games played
through the real speech queue on a simulated clock, each announcement as long as its WAV
(tests/support/pace.py). A patient player, who waits for the voice before each key, plays the
game by ear from what the queue said (tests/support/listening.py) and hears every word; a
brisk player, who never waits, hears every card laid, go, score, count and result, later:
only wheel words, screen names and sounds give way to newer ones."""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from pegboard.app.effects import SayScore
from pegboard.app.machine import view
from pegboard.rules.events import Deal
from pegboard.voice.acts import DEAL, SCORE, Importance
from pegboard.voice.audio import score_words
from pegboard.voice.hook import VoiceHook
from tests.support.listening import Listener, at_table_pace, deals_of
from tests.support.pace import DURATIONS, KEPT, TablePace, brisk, measure, patient, replay

GAMES = [(1, "encoder"), (25, "keypad")]
"""Seed 1 has a 24-hand counted after the last card's point, seed 25 is won on a count put
right: both lost counts and the result on the old queue."""

WHERE = frozenset({Importance.CUE, Importance.WHEEL, Importance.SCREEN})


@cache
def patient_game(seed: int, kit: str, style: str = "full",
                 ) -> tuple[Listener, TablePace, list[int]]:
    """The seed's game played by ear by a patient player, from what the queue said."""
    return at_table_pace(seed, kit, style)


@pytest.mark.parametrize(("seed", "kit"), GAMES)
def test_a_patient_player_plays_a_whole_game_by_ear_and_hears_every_word(
        seed: int, kit: str) -> None:
    listener, table, truth = patient_game(seed, kit)
    session = listener.state.session
    assert session is not None and list(session.state.scores) == truth
    assert table.unsaid(frozenset(Importance)) == []
    assert [a.text for a in table.said] == listener.transcript.texts()
    assert not table.cut


@pytest.mark.parametrize(("seed", "kit"), GAMES)
def test_a_brisk_player_loses_no_announcement_of_the_game(seed: int, kit: str) -> None:
    _, table, _ = patient_game(seed, kit)
    fast = replay(table, brisk)
    assert fast.clock.now() < table.clock.now()  # the brisk table is the faster
    assert fast.unsaid() == []
    # what gave way is only where the player was: the wheel, a screen, a sound
    lost = fast.unsaid(frozenset(Importance))
    assert lost and {a.importance for a in lost} <= WHERE
    # every fact in the order made
    facts = [a for a in fast.heard() if a.importance in KEPT]
    assert facts == [a for a in fast.made if a.importance in KEPT]


def test_a_replay_at_the_patient_pace_says_what_the_listener_heard() -> None:
    """The replay (used for the brisk player) is faithful: at the listener's own pace it says
    the same words, and takes the same time."""
    listener, table, _ = patient_game(*GAMES[0])
    again = replay(table, patient)
    assert [a.text for a in again.said] == [a.text for a in table.said]
    assert again.clock.now() == pytest.approx(table.clock.now())
    session = listener.state.session
    assert session is not None
    deals = sum(isinstance(event, Deal) for event in session.events)
    assert deals == 10


def speech_per_deal(listener: Listener, table: TablePace) -> float:
    """Seconds of the game's own announcements a deal (the wheel, screens and sounds left
    out: they are the same in both styles but for "Entered")."""
    session = listener.state.session
    assert session is not None
    deals = sum(isinstance(event, Deal) for event in session.events)
    return sum(DURATIONS(a) for a in table.made if a.importance in KEPT) / deals


def test_the_terse_style_says_the_same_game_in_less_time() -> None:
    """The terse style says a count by its total: the player still plays the whole game by
    ear, to the referee's scores; its facts take at least 10% less speech a deal, and a brisk
    player still loses none."""
    full, full_table, _ = patient_game(1, "keypad")
    terse, terse_table, truth = patient_game(1, "keypad", "terse")
    session = terse.state.session
    assert session is not None and list(session.state.scores) == truth
    assert terse_table.unsaid(frozenset(Importance)) == []
    assert speech_per_deal(terse, terse_table) < 0.9 * speech_per_deal(full, full_table)
    assert terse_table.clock.now() < full_table.clock.now()
    assert replay(terse_table, brisk).unsaid() == []
    counts = [a.text for a in terse_table.made if a.kind in ("hand", "crib")]
    assert counts and not [text for text in counts if "fifteen two" in text]


@pytest.mark.parametrize(("seed", "kit"), GAMES)
def test_a_brisk_players_voice_falls_behind_less_by_merging_what_is_obsolete(
        seed: int, kit: str) -> None:
    """When the table is ahead of the voice, the play's facts waiting are said as one
    sentence without what newer ones make obsolete (the queue, pegboard/voice/speaker.py):
    the voice is at least a third less behind at the end of the game, every card, go, point,
    count and result is still said in its own words, and each deal's last standing too."""
    listener, table, _ = patient_game(seed, kit)
    deals = deals_of(listener)
    before, after = measure(table, deals, merge=False), measure(table, deals)
    assert before.lost == after.lost == 0
    assert after.lags[-1] < 0.67 * before.lags[-1], (before.lags, after.lags)
    fast = replay(table, brisk)
    merged = [said for said in fast.said if said.merged]
    assert merged
    for said in merged:  # each fact's words (who, the card, what it scored) are said
        # (a count the table dealt past, in its short form; a card right after the other
        # player's without their name; a go by the point for it that follows)
        parts = [part for part in said.merged if part.parts is not None]
        at = 0
        for part, following in itertools.zip_longest(parts, parts[1:]):
            words = part.parts
            assert words is not None
            if words.turn:
                continue
            if (words.go is not None and following is not None
                    and following.parts is not None and following.parts.for_go == words.go):
                continue
            found = [(where, head) for head in (words.head, words.brief, part.short)
                     if head and (where := said.text.find(head, at)) >= 0]
            assert found, (part.text, said.text[at:])
            where, head = min(found)
            at = where + len(head)
    # each deal's last standing is said, before the next deal's announcement
    texts = [said.text for said in fast.said]
    made = fast.made
    deals_made = [at for at, said in enumerate(made) if said.kind == DEAL]
    for last, at in itertools.pairwise(deals_made):
        board = next(a.parts.board for a in reversed(made[last:at])
                     if a.parts is not None and a.parts.board)
        during = texts[texts.index(made[last].text):texts.index(made[at].text)]
        assert any(text.endswith(board) for text in during), board


@pytest.mark.parametrize(("seed", "kit"), GAMES)
def test_the_score_asked_for_is_said_next_however_far_behind_the_voice_is(
        seed: int, kit: str) -> None:
    """A brisk player two thirds into the game holds for the score (the keypad's held OK,
    the encoder's held MENU: the app's SayScore, through the real voice hook): the answer
    is begun as the announcement being said ends, not behind the minutes of facts waiting,
    and every one of those facts is still said after it, in order."""
    listener, table, _ = patient_game(seed, kit)
    fast = replay(table, brisk, keys=len(table.keys) * 2 // 3)
    waiting = sum(DURATIONS(q.said) for q in fast.queue.pending)
    assert waiting > 45, waiting  # the voice is most of a minute behind the table
    speaking, ends = fast.speaking, fast.ends
    assert speaking is not None
    fast.key("hold-ok" if kit == "keypad" else "hold-menu")
    asked = fast.clock.now()
    hook = VoiceHook(fast)
    state = listener.state
    hook.heard(state, view(state), (), first=True)
    hook.heard(state, view(state), (SayScore(),))
    score = fast.made[-1]
    assert score.kind == SCORE and score.text == score_words(state)
    fast.until_quiet()
    assert fast.said[fast.said.index(speaking) + 1] is score
    assert fast.waited_for(score) == pytest.approx(ends - asked)
    assert fast.unsaid() == []
    facts = [a for a in fast.heard() if a.importance in KEPT]
    assert facts == [a for a in fast.made if a.importance in KEPT]


COUNTS = ("hand", "crib")


@pytest.mark.parametrize(("seed", "kit"), GAMES)
def test_a_count_the_brisk_table_dealt_past_is_said_short_and_a_patient_player_hears_it_whole(
        seed: int, kit: str) -> None:
    """When the table has dealt again while a count waits, the count is said in its short
    form (the total and the names of what made it, with its standing); every count is still
    said, in order, and a patient player hears each whole."""
    _, table, _ = patient_game(seed, kit)
    counts = [a for a in table.made if a.kind in COUNTS and a.short]
    assert counts and [a for a in table.said if a.kind in COUNTS] == [
        a for a in table.made if a.kind in COUNTS]  # whole, as made
    fast = replay(table, brisk)
    short = [a for a in fast.said if len(a.merged) == 1 and a.merged[0].kind in COUNTS
             and a.merged[0].short and a.text.startswith(a.merged[0].short)]
    assert len(short) >= len(counts) // 2, (len(short), len(counts))
    for said in short:
        count = said.merged[0]
        assert DURATIONS(said) < DURATIONS(count)
        parts = count.parts
        assert parts is None or not parts.board or said.text.endswith(parts.board) or (
            said.text == count.short)  # a newer standing of the deal waits: said with it
    assert fast.unsaid() == []
    assert [a for a in fast.heard() if a.kind in COUNTS] == [
        a for a in fast.made if a.kind in COUNTS]
