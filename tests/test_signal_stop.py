"""A stop asked by a signal takes no lock: the handler runs on the main thread, which the
signal may have interrupted while it held the very lock a queue's put or an Event's set takes,
and then the process could never stop (seen: `pegboard run` hung in the handler's put)."""

from __future__ import annotations

import signal
import threading

from pegboard.commands import club as club_command


def test_sigterm_sets_the_publishers_stop_while_the_main_thread_holds_a_lock() -> None:
    stop = club_command.SignalStop()
    saved = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    held = threading.Lock()
    try:
        club_command._stop_on_signals(stop)
        with held:  # as inside Event.wait: a handler that wanted this lock would wait for ever
            signal.raise_signal(signal.SIGTERM)
            assert stop.is_set()
        assert stop.wait(0.0)
    finally:
        signal.signal(signal.SIGTERM, saved[0])
        signal.signal(signal.SIGINT, saved[1])

