"""The speech queue's rules under a fake clock, and the speaker thread beside the loop."""

from __future__ import annotations

import threading
from dataclasses import replace

from pegboard.app.sounds import Sound
from pegboard.sim.fakes import FakeClock
from pegboard.voice.acts import DEAL, SCORE, Announcement, Importance, Parts, of_parts
from pegboard.voice.speaker import MOST_WAITING, Speaker, SpeechQueue
from tests.support.announcing import added, announcer_after

PLAY, SHOW, RESULT = Importance.PLAY, Importance.SHOW, Importance.RESULT


def said(text: str, importance: Importance = PLAY, entry: int = 1) -> Announcement:
    return Announcement(text, "test", importance, entry)


def test_announcements_of_equal_importance_wait_their_turn() -> None:
    q = SpeechQueue(FakeClock())
    q.put(said("Ann: fifteen for two", entry=3))
    q.put(said("Ben: one for the go", entry=4))
    assert q.texts() == ["Ann: fifteen for two", "Ben: one for the go"]


def test_no_announcement_of_the_game_is_dropped_by_a_more_important_one() -> None:
    q = SpeechQueue(FakeClock())
    q.put(said("Ann: fifteen for two", PLAY, 3))
    q.put(said("Ben: fifteen two, fifteen four", SHOW, 4))
    q.put(said("Ben: one for last card", PLAY, 4))
    q.put(said("Ben wins", RESULT, 5))
    assert q.texts() == ["Ann: fifteen for two", "Ben: fifteen two, fifteen four",
                         "Ben: one for last card", "Ben wins"]


def test_only_where_the_player_is_gives_way_to_newer_words() -> None:
    """A wheel word gives way to anything newer but a sound (the wheel moved on); a screen's
    name to the next screen's; neither to what the same step brings."""
    q = SpeechQueue(FakeClock())
    q.put(said("The crib. Crib card 1/4: 7", Importance.SCREEN))
    q.put(said("8", Importance.WHEEL))
    q.put(said("[click]", Importance.CUE))
    assert q.texts() == ["The crib. Crib card 1/4: 7", "8", "[click]"]
    q.put(said("9", Importance.WHEEL))
    assert q.texts() == ["The crib. Crib card 1/4: 7", "[click]", "9"]
    q.put(said("Entered. The crib. Crib card 2/4: 9", Importance.SCREEN),
          said("9", Importance.WHEEL))
    assert q.texts() == ["[click]", "Entered. The crib. Crib card 2/4: 9", "9"]
    q.put(said("Ann, nine: nine", PLAY, 2))
    assert q.texts() == ["[click]", "Entered. The crib. Crib card 2/4: 9", "Ann, nine: nine"]
    q.put(said("Ben: go", PLAY, 3), said("Ann to play", PLAY, 3))
    assert q.texts()[-3:] == ["Ann, nine: nine", "Ben: go", "Ann to play"]


def test_undo_cancels_what_is_queued_for_the_undone_entries_only() -> None:
    q = SpeechQueue(FakeClock())
    q.put(said("Ann: fifteen for two", entry=5))
    q.put(said("Ben: twenty-four for three, a run", entry=6))
    q.put(said("Ann: thirty-one for two", entry=7))
    q.cancel(5)
    assert q.texts() == ["Ann: fifteen for two"]
    assert q.last is not None and q.last.text == "Ann: fifteen for two"


def test_say_it_again_repeats_the_last_one_made_but_not_one_taken_back() -> None:
    q = SpeechQueue(FakeClock())
    q.put(said("Ann: fifteen for two", entry=5))
    assert q.take() is not None
    assert q.again() and q.texts() == ["Ann: fifteen for two"]
    assert q.pending[0].said.importance is Importance.ASKED
    q.take()
    q.put(said("Ben: one for the go", entry=6))
    q.take()
    q.cancel(5)  # Ben's go taken back: Ann's fifteen is the last that stands
    assert q.again() and q.texts() == ["Ann: fifteen for two"]
    q.take()
    q.cancel(4)
    assert not q.again() and q.texts() == []


def test_a_repeat_asked_for_is_not_cancelled_by_undo() -> None:
    q = SpeechQueue(FakeClock())
    q.put(Announcement("Play. Ann 45", "screen", Importance.ASKED, 0))
    q.cancel(0)
    assert q.texts() == ["Play. Ann 45"]


def test_a_long_count_does_not_make_what_follows_it_stale() -> None:
    """A 28 hand takes 13.7 s to say: the go after it waits, however long, and is said."""
    clock = FakeClock()
    q = SpeechQueue(clock)
    q.put(said("Ben: fifteen two, ... and a double double run is twenty-eight", SHOW, 7))
    q.put(said("Ann: go", PLAY, 8))
    taken = q.take()
    assert taken is not None and taken.importance is SHOW
    clock.advance(60.0)
    taken = q.take()
    assert taken is not None and taken.text == "Ann: go"


class GatedVoice:
    """A voice whose speaking the test releases one announcement at a time."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.done: list[str] = []
        self.stopped = 0
        self.began = threading.Semaphore(0)
        self.go_on = threading.Semaphore(0)

    def speak(self, text: str) -> None:
        self.started.append(text)
        self.began.release()
        assert self.go_on.acquire(timeout=60)
        self.done.append(text)

    def play(self, sound: Sound) -> None:
        raise AssertionError(f"these tests say words, not sounds ({sound})")

    def stop(self) -> None:
        self.stopped += 1
        self.go_on.release()


def test_the_speaker_says_in_order_on_its_own_thread_and_undo_stops_the_current() -> None:
    voice = GatedVoice()
    speaker = Speaker(voice, FakeClock())
    try:
        speaker.say([said("one", entry=1)])
        assert voice.began.acquire(timeout=60)
        # the loop's calls return at once while "one" is still being said
        speaker.say([said("two", entry=2), said("three", entry=3)])
        assert voice.done == [] and speaker.queue.texts() == ["two", "three"]
        voice.go_on.release()
        assert voice.began.acquire(timeout=60)  # "two" begins
        speaker.cancel(1)  # entries 2 and 3 taken back: "two" stopped, "three" dropped
        assert voice.stopped == 1
        assert speaker.idle(timeout=60)
        assert voice.started == ["one", "two"] and speaker.queue.texts() == []
    finally:
        speaker.close()


def test_a_transcript_keeps_what_was_said_and_repeats_what_still_stands() -> None:
    from pegboard.voice.hook import Transcript

    transcript = Transcript()
    transcript.say([said("Ann: fifteen for two", entry=5), said("Ben: one for the go", entry=6)])
    transcript.cancel(5)
    transcript.again()
    assert transcript.texts() == ["Ann: fifteen for two", "Ben: one for the go",
                                  "Ann: fifteen for two"]
    assert transcript.said[-1].importance is Importance.ASKED


def test_a_storm_of_asking_again_waits_once_and_the_queue_stays_bounded() -> None:
    q = SpeechQueue(FakeClock())
    q.put(said("Ann: fifteen for two", entry=5))
    assert q.take() is not None
    for _ in range(500):  # say it again, and the score, held over and over
        assert q.again()
        q.put(said("Ann 12, Ben 9", Importance.ASKED, 5))
    assert q.texts() == ["Ann: fifteen for two", "Ann 12, Ben 9"]
    q.put(said("Ben: one for the go", entry=6))
    for _ in range(500):  # a click for every detent of a long fast spin: none replaced
        q.put(said("click", Importance.CUE, 6))
    assert len(q.pending) == MOST_WAITING + 1  # the game's own announcement is not counted
    assert q.texts()[:3] == ["Ann: fifteen for two", "Ann 12, Ben 9", "Ben: one for the go"]
    for entry in range(7, 207):  # the game's announcements are never dropped to bound it
        q.put(said(f"play {entry}", PLAY, entry))
    assert len(q.pending) == MOST_WAITING + 201
    assert q.texts()[-1] == "play 206" and "Ben: one for the go" in q.texts()


def test_the_last_card_of_a_deal_is_said_with_the_counts_its_entry_made() -> None:
    """The last card's point and the hands the engine counted with it come in one step:
    the counts, worth more, do not drop the point unsaid, nor what an earlier step left
    unsaid."""
    announcer, state, entered = announcer_after(
        ("Ann", "Ben"),
        "deal 0; starter 5C; play 1 TH 0 TS 1 AH 0 2S 1 3H 0 4S; go 1; go 0; play 1 KH 0 QS")
    announcer.heard(state, added(*entered.added[:-1]))
    last = announcer.heard(state, added(entered.added[-1])).said
    assert [a.importance for a in last] == [PLAY, SHOW, SHOW]
    q = SpeechQueue(FakeClock())
    q.put(said("Ben: one for the go", PLAY, 8))  # an earlier step's, still unsaid
    q.put(*last)
    assert q.texts() == ["Ben: one for the go", "Ann: one for last card",
                         "Ben: fifteen two, fifteen four, and a flush of four is eight",
                         "Ann: fifteen two, fifteen four, and a flush of four is eight"]


def laid(who: str, card: str, count: str, entry: int) -> Announcement:
    return of_parts(Parts(f"{who}, {card}", count, card=True), "laid", PLAY, entry, ())


def scored(text: str, board: str, entry: int, kind: str = "play", *,
           card: bool = True) -> Announcement:
    return of_parts(Parts(text, board=board, card=card), kind, PLAY, entry, ())


def test_a_voice_behind_the_table_says_the_plays_facts_as_one_without_what_is_obsolete(
        ) -> None:
    """Three cards laid by three keys while the voice is still busy: one sentence, every card
    and point in order, the latest count and standing only; whose turn it was goes once a
    later card is said."""
    q = SpeechQueue(FakeClock())
    q.put(said("Ann: fifteen two, and a pair is four; Ann 20, Ben 9", SHOW, 1))
    q.put(laid("Ben", "seven", "seven", 2), said("8", Importance.WHEEL, 2))
    q.put(scored("Ann, eight: fifteen for two", "Ann 22, Ben 9", 3),
          said("[ok]", Importance.CUE, 3))
    q.put(of_parts(Parts("Ben: go"), "go", PLAY, 4, ()),
          of_parts(Parts("Ann to play", turn=True), "turn", PLAY, 4, ()))
    q.put(laid("Ann", "king", "twenty-five", 5))
    assert q.take() == said("Ann: fifteen two, and a pair is four; Ann 20, Ben 9", SHOW, 1)
    merged = q.take()
    assert merged is not None and merged.text == (
        "Ben, seven; Ann, eight: fifteen for two; Ann 22, Ben 9; Ben: go; Ann, king: "
        "twenty-five")
    assert [a.entry for a in merged.merged] == [2, 3, 4, 4, 5]
    assert q.texts() == ["[ok]"]  # the sound of a key long past comes after


def test_what_one_key_brought_is_said_whole_and_a_merge_keeps_within_the_deal() -> None:
    """A patient player hears every announcement as made: the facts of one key are never
    merged. A standing gives way to a newer one of the same deal only, so each deal's last
    standing is said; an undo before the voice gets there leaves the taken-back card out."""
    q = SpeechQueue(FakeClock())
    last = scored("Ben, ten: thirty for two, and one for last card", "Ann 30, Ben 20", 1,
                  "last card")
    count = of_parts(Parts("Ann: fifteen two", board="Ann 32, Ben 20"), "hand", SHOW, 1, ())
    q.put(last, count)
    assert [q.take(), q.take()] == [last, count]
    q.put(last)
    q.put(count)
    crib = of_parts(Parts("Ben's crib: fifteen two", board="Ann 32, Ben 22"), "crib", SHOW,
                    2, ())
    q.put(crib)
    q.put(Announcement("Deal 2: Ann deals", DEAL, PLAY, 3))
    q.put(scored("Ben: his heels for two", "Ann 32, Ben 24", 3, "his heels", card=False))
    assert [a and a.text for a in (q.take(), q.take(), q.take())] == [
        "Ben, ten: thirty for two, and one for last card", "Ann: fifteen two",
        "Ben's crib: fifteen two; Ann 32, Ben 22"]  # the deal's last standing
    q.take()
    q.put(laid("Ben", "seven", "seven", 4))
    q.put(laid("Ann", "eight", "fifteen", 5))
    q.cancel(4)  # Ann's eight taken back
    his_heels = q.take()
    assert his_heels is not None and his_heels.text == "Ben: his heels for two; Ann 32, Ben 24"
    assert [a.text for a in (q.take(),) if a] == ["Ben, seven: seven"]
    assert q.take() is None


def test_a_queue_that_does_not_merge_says_every_announcement_as_made() -> None:
    q = SpeechQueue(FakeClock(), merge=False)
    first, second = laid("Ben", "seven", "seven", 1), laid("Ann", "king", "seventeen", 2)
    q.put(first)
    q.put(second)
    assert [q.take(), q.take()] == [first, second]


def test_the_score_asked_for_is_said_next_and_every_waiting_fact_after_it() -> None:
    """"Say the score" goes ahead of what waits (after the sound of the key that asked), an
    older answer not yet said gives way to the newer one, and nothing else is dropped."""
    q = SpeechQueue(FakeClock())
    q.put(said("Ann, seven: twenty-two", entry=5))
    q.put(said("Ben: fifteen two, fifteen four", SHOW, 6))
    q.put(said("Ann 40, Ben 31", Importance.ASKED, 6))
    q.put(said("Ann: one for last card", PLAY, 7), said("[ok]", Importance.CUE, 7))
    q.put(said("[ok]", Importance.CUE, 7),
          Announcement("Ann 41, Ben 31", SCORE, Importance.ASKED, 7))
    assert q.texts() == ["[ok]", "Ann 41, Ben 31", "Ann, seven: twenty-two",
                         "Ben: fifteen two, fifteen four", "Ann 40, Ben 31",
                         "Ann: one for last card", "[ok]"]
    q.put(Announcement("Ann 43, Ben 31", SCORE, Importance.ASKED, 8))
    assert q.texts()[:2] == ["Ann 43, Ben 31", "[ok]"]
    assert "Ann 41, Ben 31" not in q.texts()
    assert q.take() == Announcement("Ann 43, Ben 31", SCORE, Importance.ASKED, 8)


def test_a_count_the_table_has_dealt_past_is_said_in_its_short_form() -> None:
    """A show count still waiting when the next deal's announcement waits behind it is said
    in its short form with its standing, and says the count (nothing is lost); with no
    newer deal waiting, or from a queue that merges nothing, it is said whole."""
    count = of_parts(Parts("Ben: fifteen two, fifteen four, and a double run is twelve",
                           board="Ann 40, Ben 52"), "hand", SHOW, 20, ())
    count = replace(count, short="Ben: twelve, fifteens and a double run")
    deal = Announcement("Deal 4: Ann deals", DEAL, PLAY, 22)
    q = SpeechQueue(FakeClock())
    q.put(count)
    q.put(said("Ann's crib: nineteen", SHOW, 21))
    assert q.take() is count  # no newer deal waits: whole
    assert q.take() is not None
    q.put(count)
    q.put(deal)
    short = q.take()
    assert short is not None
    assert short.text == "Ben: twelve, fifteens and a double run; Ann 40, Ben 52"
    assert short.merged == (count,)
    assert q.take() is deal
    plain = SpeechQueue(FakeClock(), merge=False)
    plain.put(count, deal)
    assert plain.take() is count


def behind(names: tuple[str, ...], script: str) -> str:
    """The play of ``script`` told (in audio mode) to a queue still saying a count, each
    entry by a key of its own: what the voice says for them once the count is said."""
    announcer, state, entered = announcer_after(names, script)
    announcer.audio = True
    q = SpeechQueue(FakeClock())
    q.put(said("Ann: fifteen two, and a pair is four", SHOW, 1))
    for report in entered.added:
        q.put(*announcer.heard(state, added(report)).said)
    taken = [q.take() for _ in range(len(q.pending))]
    merged = [a.text for a in taken if a is not None and a.merged]
    assert len(merged) == 1, taken
    return merged[0]


def test_behind_the_table_a_card_after_the_other_players_is_said_without_their_name() -> None:
    """In a game of two, a card laid right after the other player's goes without its
    player's name (the turn passed as it always does); a card after a go, or the first, keeps
    it; a go followed by the same player's one for the go is said by the point."""
    assert behind(("Ann", "Ben"), "deal 0; starter 5C; play 1 TH 0 TS 1 AH 0 2S 1 3H 0 4S; "
                                  "go 1; go 0; play 1 KH") == (
        "Ben, ten; ten: twenty for two, a pair; ace; two; three: twenty-six for three, a run; "
        "four: thirty for four, a run; Ben: go; Ann: one for the go; Ann 7, Ben 3; Ben, king: "
        "ten")


def test_behind_the_table_a_game_of_three_names_every_card() -> None:
    """Three players: who lays next is not always the seat after (a player out of cards is
    passed by without a word), so every card keeps its player's name."""
    text = behind(("Ann", "Ben", "Cy"), "deal 0; starter 5C; play 1 TH 2 9S 0 2S")
    assert text == "Ben, ten; Cy, nine; Ann, two: twenty-one"
