"""Debounce, long press and auto-repeat: fed raw edges with timestamps, no sleeping."""

from __future__ import annotations

import pytest

from pegboard.app.inputs import Button, Press, RankKey
from pegboard.hw.gestures import KeyAction, KeyGestures, RawEdge, Timing
from pegboard.rules.cards import Rank

TIMING = Timing(debounce_s=0.02, hold_s=0.8, repeat_s=0.15)
OK = Press(Button.OK)
OK_LONG = Press(Button.OK, long=True)
UNDO = Press(Button.UNDO)
UNDO_AGAIN = Press(Button.UNDO, repeat=True)
SEVEN = RankKey(Rank.SEVEN)


def keys() -> KeyGestures:
    return KeyGestures(
        {
            "ok": KeyAction(OK, hold=OK_LONG),
            "undo": KeyAction(UNDO, repeat=UNDO_AGAIN),
            "7": KeyAction(SEVEN),
        },
        TIMING,
    )


def test_short_press_reports_tap_on_release() -> None:
    g = keys()
    assert g.edge(RawEdge("ok", True, 0.0)) == []
    assert g.poll(0.5) == []
    assert g.edge(RawEdge("ok", False, 0.5)) == [OK]
    assert g.poll(5.0) == []


def test_hold_reports_once_at_hold_time_and_nothing_on_release() -> None:
    g = keys()
    g.edge(RawEdge("ok", True, 0.0))
    assert g.next_deadline() == pytest.approx(0.8)
    assert g.poll(0.79) == []
    assert g.poll(0.8) == [OK_LONG]
    assert g.poll(3.0) == []
    assert g.edge(RawEdge("ok", False, 3.0)) == []
    # The next short press is a plain tap again.
    g.edge(RawEdge("ok", True, 4.0))
    assert g.edge(RawEdge("ok", False, 4.1)) == [OK]


def test_bouncing_contact_gives_one_tap() -> None:
    g = keys()
    out = []
    # Press with 5 ms of chatter, release with chatter: one press, one release.
    for t, level in [(0.000, True), (0.001, False), (0.002, True), (0.004, False),
                     (0.005, True), (0.300, False), (0.301, True), (0.303, False)]:
        out += g.edge(RawEdge("ok", level, t))
    out += g.poll(1.0)
    assert out == [OK]


def test_bounce_that_settles_the_other_way_is_followed_after_lockout() -> None:
    g = keys()
    g.edge(RawEdge("7", True, 0.0))  # reported at once
    # A glitch: the contact opened again within the lock-out and stayed open.
    assert g.edge(RawEdge("7", False, 0.005)) == []
    assert g.any_down()
    assert g.next_deadline() == pytest.approx(0.02)
    assert g.poll(0.02) == []
    assert not g.any_down()
    # So the next real press counts.
    assert g.edge(RawEdge("7", True, 0.5)) == [SEVEN]


def test_plain_key_reports_on_press_immediately() -> None:
    g = keys()
    assert g.edge(RawEdge("7", True, 1.0)) == [SEVEN]
    assert g.poll(10.0) == []
    assert g.edge(RawEdge("7", False, 10.0)) == []


def test_repeat_starts_after_hold_then_every_period() -> None:
    g = keys()
    assert g.edge(RawEdge("undo", True, 0.0)) == [UNDO]
    assert g.poll(0.79) == []
    assert g.poll(0.80) == [UNDO_AGAIN]
    assert g.poll(0.94) == []
    assert g.poll(0.951) == [UNDO_AGAIN]
    assert g.edge(RawEdge("undo", False, 1.0)) == []
    assert g.poll(5.0) == []
    assert g.next_deadline() is None


def test_a_late_poll_gives_one_repeat_not_a_burst() -> None:
    g = keys()
    g.edge(RawEdge("undo", True, 0.0))
    assert g.poll(10.0) == [UNDO_AGAIN]
    assert g.next_deadline() == pytest.approx(10.15)


def test_button_storm_stays_consistent() -> None:
    """Thousands of random edges: never more taps than settled presses, state consistent."""
    import random

    rng = random.Random(7)
    g = keys()
    t = 0.0
    level = False
    taps = 0
    for _ in range(5000):
        t += rng.choice([0.001, 0.004, 0.03, 0.2])
        level = rng.random() < 0.5
        taps += g.edge(RawEdge("7", level, t)).count(SEVEN)
    g.edge(RawEdge("7", False, t + 1))
    g.poll(t + 2)
    assert not g.any_down()
    # At most one tap per debounce window.
    assert 0 < taps <= int(t / TIMING.debounce_s) + 1


def test_unknown_key_is_named() -> None:
    with pytest.raises(KeyError, match="'x'"):
        keys().edge(RawEdge("x", True, 0.0))


def test_bad_timing_is_refused() -> None:
    with pytest.raises(ValueError, match="debounce"):
        Timing(debounce_s=1.0, hold_s=0.5)
    with pytest.raises(ValueError, match="repeat"):
        Timing(repeat_s=0)
    with pytest.raises(ValueError, match="hold or repeats"):
        KeyAction(OK, hold=OK_LONG, repeat=OK)
