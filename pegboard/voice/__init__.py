"""Pegboard's voice: awards and counts said aloud through espeak-ng (see docs/voice.md).

:mod:`~pegboard.voice.phrases` words them (pure), :mod:`~pegboard.voice.announce` finds them in
the app's states (pure), :mod:`~pegboard.voice.speaker` says them on a thread of their own
through :mod:`~pegboard.voice.espeak`, and :mod:`~pegboard.voice.hook` is what the loop calls.
"""
