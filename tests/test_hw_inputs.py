"""The input kits on gpiozero's MockFactory: real gpiozero devices, pins driven by hand."""

from __future__ import annotations

import itertools
import queue
import threading

import pytest
from gpiozero.pins.mock import MockFactory

from pegboard.app.inputs import Button, InputEvent, KnobTurn, Press, RankKey
from pegboard.hw.gestures import RawEdge, Timing
from pegboard.hw.inputs import (
    ButtonPins,
    EncoderKit,
    EncoderPins,
    EncoderStep,
    KeypadKit,
    KeypadPins,
    RawInput,
)
from pegboard.rules.cards import Rank
from pegboard.sim.fakes import FakeClock, MockKeypadMatrix, press_pin, release_pin, turn_encoder

TIMING = Timing(debounce_s=0.02, hold_s=0.8, repeat_s=0.15)


def drain(q: queue.Queue[RawInput], kit: EncoderKit | KeypadKit) -> list[InputEvent]:
    out: list[InputEvent] = []
    while not q.empty():
        out += kit.translate(q.get_nowait())
    return out


def test_encoder_detents_become_turns(factory: MockFactory) -> None:
    clock = FakeClock()
    q: queue.Queue[RawInput] = queue.Queue()
    kit = EncoderKit(q.put, clock, timing=TIMING)
    turn_encoder(factory, 17, 25, 3)
    turn_encoder(factory, 17, 25, -1)
    assert [q.queue[i] for i in range(q.qsize())] == [
        EncoderStep(1, clock.now()), EncoderStep(1, clock.now()), EncoderStep(1, clock.now()),
        EncoderStep(-1, clock.now())]
    assert drain(q, kit) == [KnobTurn(1), KnobTurn(1), KnobTurn(1), KnobTurn(-1)]
    kit.close()


def test_half_a_detent_and_back_is_no_turn(factory: MockFactory) -> None:
    q: queue.Queue[RawInput] = queue.Queue()
    kit = EncoderKit(q.put, FakeClock(), timing=TIMING)
    a, b = factory.pin(17), factory.pin(25)
    a.drive_low()
    b.drive_low()
    b.drive_high()
    a.drive_high()
    assert q.empty()
    kit.close()


def test_callbacks_only_enqueue_timestamped_edges(factory: MockFactory) -> None:
    clock = FakeClock(50.0)
    q: queue.Queue[RawInput] = queue.Queue()
    kit = EncoderKit(q.put, clock, timing=TIMING)
    press_pin(factory, 22)
    clock.advance(0.1)
    release_pin(factory, 22)
    assert list(q.queue) == [RawEdge("go", True, 50.0), RawEdge("go", False, 50.1)]
    assert drain(q, kit) == [Press(Button.GO)]
    kit.close()


def test_encoder_push_held_is_a_long_ok(factory: MockFactory) -> None:
    clock = FakeClock()
    q: queue.Queue[RawInput] = queue.Queue()
    kit = EncoderKit(q.put, clock, timing=TIMING)
    press_pin(factory, 27)
    assert drain(q, kit) == []
    deadline = kit.next_deadline()
    assert deadline == pytest.approx(clock.now() + 0.8)
    clock.advance(0.8)
    assert kit.poll(clock.now()) == [Press(Button.OK, long=True)]
    release_pin(factory, 27)
    assert drain(q, kit) == []
    kit.close()


def test_custom_pins_are_used(factory: MockFactory) -> None:
    q: queue.Queue[RawInput] = queue.Queue()
    pins = EncoderPins(a=4, b=25, push=26, go=7, undo=8, menu=9)
    clock = FakeClock()
    kit = EncoderKit(q.put, clock, pins=pins, timing=TIMING)
    press_pin(factory, 9)
    clock.advance(0.1)
    release_pin(factory, 9)
    turn_encoder(factory, 4, 25, -2)
    assert drain(q, kit) == [Press(Button.MENU), KnobTurn(-1), KnobTurn(-1)]
    kit.close()


def test_keypad_scan_reads_the_matrix(factory: MockFactory) -> None:
    clock = FakeClock()
    matrix = MockKeypadMatrix(factory, (5, 6, 13, 26), (12, 16, 4, 7))
    kit = KeypadKit(clock, pins=KeypadPins(), timing=TIMING)
    assert kit.scan() == set()
    matrix.press(1, 2)  # row 2 ("4 5 6 Q"), third column: the 6
    assert kit.scan() == {"6"}
    assert kit.poll(clock.now()) == []  # reported on release (a hold means more)
    clock.advance(0.05)
    matrix.release(1, 2)
    clock.advance(0.01)
    assert kit.poll(clock.now()) == [RankKey(Rank.SIX)]
    matrix.press(3, 2)  # '#': GO, reported on release
    clock.advance(0.03)
    assert kit.poll(clock.now()) == []
    matrix.release(3, 2)
    clock.advance(0.03)
    assert kit.poll(clock.now()) == [Press(Button.GO)]
    # Between scans every row and column is an input pulled up: nothing is driven.
    assert all(factory.pin(p).function == "input" and factory.pin(p).state
               for p in (5, 6, 13, 26, 12, 16, 4, 7))
    kit.close()


def test_keypad_every_key(factory: MockFactory) -> None:
    clock = FakeClock()
    matrix = MockKeypadMatrix(factory, (5, 6, 13, 26), (12, 16, 4, 7))
    kit = KeypadKit(clock, timing=TIMING)
    seen: list[InputEvent] = []
    for r in range(4):
        for c in range(4):
            matrix.press(r, c)
            clock.advance(0.05)
            seen += kit.poll(clock.now())
            matrix.release(r, c)
            clock.advance(0.05)
            seen += kit.poll(clock.now())
    ranks = [e.rank for e in seen if isinstance(e, RankKey)]
    assert sorted(ranks) == list(Rank)
    assert [e for e in seen if isinstance(e, Press)] == [
        Press(Button.UNDO), Press(Button.GO), Press(Button.OK)]
    kit.close()


def test_keypad_held_rank_asks_for_suit_facts(factory: MockFactory) -> None:
    clock = FakeClock()
    matrix = MockKeypadMatrix(factory, (5, 6, 13, 26), (12, 16, 4, 7))
    kit = KeypadKit(clock, timing=TIMING)
    matrix.press(0, 3)  # J
    events: list[InputEvent] = []
    for _ in range(100):
        clock.advance(0.01)
        events += kit.poll(clock.now())
    matrix.release(0, 3)
    clock.advance(0.05)
    events += kit.poll(clock.now())
    assert events == [RankKey(Rank.JACK, long=True)]
    kit.close()


def test_keypad_hold_ok_is_menu(factory: MockFactory) -> None:
    clock = FakeClock()
    matrix = MockKeypadMatrix(factory, (5, 6, 13, 26), (12, 16, 4, 7))
    kit = KeypadKit(clock, timing=TIMING)
    matrix.press(3, 3)
    events: list[InputEvent] = []
    for _ in range(100):
        clock.advance(0.01)
        events += kit.poll(clock.now())
    assert events == [Press(Button.MENU)]
    kit.close()


def test_keypad_scans_at_a_fixed_rate(factory: MockFactory) -> None:
    clock = FakeClock(0.0)
    MockKeypadMatrix(factory, (5, 6, 13, 26), (12, 16, 4, 7))
    kit = KeypadKit(clock, timing=TIMING, scan_s=0.01)
    kit.poll(0.0)
    assert kit.next_deadline() == pytest.approx(0.01)
    kit.poll(5.0)  # a late loop: next scan one period on, not a burst
    assert kit.next_deadline() == pytest.approx(5.01)
    kit.close()


ROWS, COLS = (5, 6, 13, 26), (12, 16, 4, 7)


def contention(factory: MockFactory, rows: list[int]) -> str | None:
    """Two of ``rows`` (joined through held keys) that are outputs at opposite levels."""
    driven = {pin: factory.pin(pin).state for pin in rows
              if factory.pin(pin).function == "output"}
    if len(set(driven.values())) > 1:
        return f"outputs at opposite levels: {driven}"
    return None


@pytest.mark.parametrize("col", range(4))
def test_two_keys_in_one_column_never_join_opposite_outputs(factory: MockFactory,
                                                            col: int) -> None:
    """Every pin change during a scan, with any two keys of one column held: the rows those
    keys join are never an output driven high and an output driven low at once."""
    clock = FakeClock()
    matrix = MockKeypadMatrix(factory, ROWS, COLS)
    kit = KeypadKit(clock, timing=TIMING)
    problems: list[str] = []
    steps = 0
    copper = matrix.update

    def watched() -> None:  # called on every level or direction change of a row pin
        nonlocal steps
        steps += 1
        joined = [ROWS[r] for r, c in matrix.pressed if c == col]
        problem = contention(factory, joined)
        if problem:
            problems.append(problem)
        copper()

    matrix.update = watched  # type: ignore[method-assign]
    for first, second in itertools.combinations(range(4), 2):
        matrix.press(first, col)
        matrix.press(second, col)
        steps = 0
        down = kit.scan()
        assert steps >= 8  # each of the four rows was driven and released
        assert down == {kit.layout[first][col], kit.layout[second][col]}
        matrix.release(first, col)
        matrix.release(second, col)
    assert problems == []
    kit.close()


def test_at_most_one_matrix_pin_is_an_output_during_a_scan(factory: MockFactory) -> None:
    clock = FakeClock()
    matrix = MockKeypadMatrix(factory, ROWS, COLS)
    kit = KeypadKit(clock, timing=TIMING)
    outputs: list[list[int]] = []
    copper = matrix.update

    def watched() -> None:
        outputs.append([pin for pin in ROWS + COLS if factory.pin(pin).function == "output"])
        copper()

    matrix.update = watched  # type: ignore[method-assign]
    kit.scan()
    assert max(len(pins) for pins in outputs) == 1
    # Each row in turn is the only output (a row's direction and level each report a change).
    driven = [pins for pins in outputs if pins]
    assert [pins for i, pins in enumerate(driven) if i == 0 or pins != driven[i - 1]] == [
        [row] for row in ROWS]
    kit.close()


def test_the_keypad_kit_reads_its_three_buttons(factory: MockFactory) -> None:
    clock = FakeClock()
    q: queue.Queue[RawInput] = queue.Queue()
    MockKeypadMatrix(factory, ROWS, COLS)
    kit = KeypadKit(clock, timing=TIMING, buttons=ButtonPins(go=22, undo=23, menu=24),
                    sink=q.put)
    events: list[InputEvent] = []
    for pin in (22, 23, 24):
        press_pin(factory, pin)
        clock.advance(0.1)
        release_pin(factory, pin)
        clock.advance(0.1)
        events += drain(q, kit) + kit.poll(clock.now())
    assert events == [Press(Button.GO), Press(Button.UNDO), Press(Button.MENU)]
    kit.close()


def test_the_configured_keypad_kit_has_the_buttons_of_the_config(factory: MockFactory) -> None:
    from pegboard.config import InputConfig
    from pegboard.device.build import make_kit

    clock = FakeClock()
    q: queue.Queue[RawInput] = queue.Queue()
    MockKeypadMatrix(factory, ROWS, COLS)
    kit = make_kit(InputConfig(kit="keypad", button_menu=9), q.put, clock, pin_factory=factory)
    press_pin(factory, 9)
    clock.advance(0.1)
    release_pin(factory, 9)
    assert drain(q, kit) == [Press(Button.MENU)]  # type: ignore[arg-type]
    kit.close()


def test_neither_kit_starts_a_thread(factory: MockFactory) -> None:
    # gpiozero's Button starts a hold thread that wakes ten times a second for as long as the
    # board runs; the kits' buttons are plain input devices (the holds are KeyGestures').
    before = set(threading.enumerate())
    clock = FakeClock()
    q: queue.Queue[RawInput] = queue.Queue()
    encoder = EncoderKit(q.put, clock, timing=TIMING)
    MockKeypadMatrix(factory, ROWS, COLS)
    keypad = KeypadKit(clock, timing=TIMING, buttons=ButtonPins(go=20, undo=21, menu=19),
                       sink=q.put)
    assert set(threading.enumerate()) - before == set()
    press_pin(factory, 27)  # the encoder's push, pressed low as a button is
    clock.advance(0.1)
    release_pin(factory, 27)
    assert drain(q, encoder) == [Press(Button.OK)]
    encoder.close()
    keypad.close()
