"""Raw key edges in, clean gestures out: debounce, long press and auto-repeat.

This module is pure: it never reads a clock or a pin. The adapters timestamp every raw edge
with the injected clock when gpiozero reports it, and the loop feeds those edges here in order
and calls :meth:`KeyGestures.poll` with the current time, so every timing rule is tested by
handing in numbers instead of sleeping.

The rules:

* **Debounce** (lock-out): the first edge that changes a key's level is taken at once (no added
  latency), then the key ignores further edges for ``debounce_s``. When the lock-out ends, the
  key's level is compared with the last raw level seen, so a contact that bounced and settled
  the other way is still followed.
* **Tap and hold**: a key with a ``hold`` event reports ``tap`` when released before
  ``hold_s``, and ``hold`` once, the moment it has been held for ``hold_s`` (the player sees the
  effect without letting go). Releasing after a hold reports nothing more.
* **Tap and repeat**: a key with a ``repeat`` event reports ``tap`` as soon as it goes down and,
  while still held, ``repeat`` after ``hold_s`` and then every ``repeat_s``.
* **Tap only**: any other key reports ``tap`` as soon as it goes down.
"""

from __future__ import annotations

from pegboard.app.inputs import InputEvent
from pegboard.rules.value import Value


class Timing(Value):
    """How long a contact may bounce, when a press becomes a hold, and the repeat period."""

    __slots__ = ("debounce_s", "hold_s", "repeat_s")
    __match_args__ = ("debounce_s", "hold_s", "repeat_s")

    debounce_s: float
    hold_s: float
    repeat_s: float

    def __init__(self, debounce_s: float = 0.02, hold_s: float = 0.8,
                 repeat_s: float = 0.15) -> None:
        if not 0 <= debounce_s < hold_s:
            raise ValueError(
                f"debounce {debounce_s!r} s must be at least 0 and shorter than the "
                f"hold time {hold_s!r} s"
            )
        if repeat_s <= 0:
            raise ValueError(f"repeat period {repeat_s!r} s must be more than 0")
        setter = object.__setattr__
        setter(self, "debounce_s", debounce_s)
        setter(self, "hold_s", hold_s)
        setter(self, "repeat_s", repeat_s)


class KeyAction(Value):
    """What one physical key means: its tap, and optionally a hold or a repeat event."""

    __slots__ = ("hold", "repeat", "tap")
    __match_args__ = ("tap", "hold", "repeat")

    tap: InputEvent
    hold: InputEvent | None
    repeat: InputEvent | None

    def __init__(self, tap: InputEvent, hold: InputEvent | None = None,
                 repeat: InputEvent | None = None) -> None:
        if hold is not None and repeat is not None:
            raise ValueError("a key either reports a hold or repeats, not both")
        setter = object.__setattr__
        setter(self, "tap", tap)
        setter(self, "hold", hold)
        setter(self, "repeat", repeat)


class RawEdge(Value):
    """A key's contact changed: ``pressed`` is the new raw level, ``t`` when it was seen."""

    __slots__ = ("key", "pressed", "t")
    __match_args__ = ("key", "pressed", "t")

    key: str
    pressed: bool
    t: float

    def __init__(self, key: str, pressed: bool, t: float) -> None:
        setter = object.__setattr__
        setter(self, "key", key)
        setter(self, "pressed", pressed)
        setter(self, "t", t)


class _KeyState:
    """One key's debouncing and hold state (changed as its edges come in)."""

    __slots__ = ("action", "down_at", "events", "held", "locked_until", "next_repeat", "raw",
                 "stable")

    def __init__(self, action: KeyAction) -> None:
        self.action = action
        self.raw = False
        self.stable = False
        self.locked_until = float("-inf")
        self.down_at = 0.0
        self.held = False
        self.next_repeat: float | None = None
        self.events: list[InputEvent] = []


class KeyGestures:
    """Turns the raw edges of a set of named keys into gestures.

    >>> from pegboard.app.inputs import Button, Press
    >>> keys = KeyGestures({"go": KeyAction(Press(Button.GO), hold=Press(Button.GO, long=True))})
    >>> keys.edge(RawEdge("go", True, 0.0)), keys.edge(RawEdge("go", False, 0.1))
    ([], [Press(button=<Button.GO: 'go'>, long=False, repeat=False)])
    >>> keys.edge(RawEdge("go", True, 1.0)), keys.poll(1.9)
    ([], [Press(button=<Button.GO: 'go'>, long=True, repeat=False)])
    """

    def __init__(self, actions: dict[str, KeyAction], timing: Timing | None = None) -> None:
        self.timing = timing or Timing()
        self._keys = {name: _KeyState(action) for name, action in actions.items()}

    @property
    def names(self) -> tuple[str, ...]:
        """The keys this set knows, in the order given."""
        return tuple(self._keys)

    def edge(self, edge: RawEdge) -> list[InputEvent]:
        """Feed one raw edge (in time order); returns the gestures it completes."""
        key = self._keys.get(edge.key)
        if key is None:
            raise KeyError(f"unknown key {edge.key!r}; known keys: {', '.join(self._keys)}")
        out = self._settle(key, edge.t)
        key.raw = edge.pressed
        if edge.t >= key.locked_until and key.raw != key.stable:
            self._accept(key, key.raw, edge.t, out)
        return out

    def poll(self, now: float) -> list[InputEvent]:
        """Gestures due by ``now`` (holds, repeats, settled bounces), in key order."""
        out: list[InputEvent] = []
        for key in self._keys.values():
            out.extend(self._settle(key, now))
        return out

    def next_deadline(self) -> float | None:
        """The earliest time at which :meth:`poll` could report something, if any."""
        times: list[float] = []
        for key in self._keys.values():
            if key.raw != key.stable:
                times.append(key.locked_until)
            if key.stable and not key.held and key.action.hold is not None:
                times.append(key.down_at + self.timing.hold_s)
            if key.stable and key.next_repeat is not None:
                times.append(key.next_repeat)
        return min(times) if times else None

    def any_down(self) -> bool:
        """True while any key is (debounced) down."""
        return any(key.stable for key in self._keys.values())

    # -- internals -------------------------------------------------------------------------

    def _settle(self, key: _KeyState, now: float) -> list[InputEvent]:
        out: list[InputEvent] = []
        if key.raw != key.stable and now >= key.locked_until:
            # The lock-out ended with the contact the other way: follow it now.
            self._accept(key, key.raw, key.locked_until, out)
        if key.stable:
            action = key.action
            if action.hold is not None and not key.held and now >= key.down_at + self.timing.hold_s:
                key.held = True
                out.append(action.hold)
            if key.next_repeat is not None and now >= key.next_repeat:
                assert action.repeat is not None
                out.append(action.repeat)
                # One repeat per poll: a loop that fell behind must not fire a burst.
                key.next_repeat = max(key.next_repeat, now) + self.timing.repeat_s
        return out

    def _accept(self, key: _KeyState, pressed: bool, t: float, out: list[InputEvent]) -> None:
        key.stable = pressed
        key.locked_until = t + self.timing.debounce_s
        action = key.action
        if pressed:
            key.down_at = t
            key.held = False
            if action.hold is None:
                out.append(action.tap)
            if action.repeat is not None:
                key.next_repeat = t + self.timing.hold_s
        else:
            if action.hold is not None and not key.held:
                out.append(action.tap)
            key.held = False
            key.next_repeat = None
