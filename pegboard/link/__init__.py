"""The LED pegboard link: board model, LED layout, wire protocol and the serial adapter.

Pure parts (importable anywhere): :mod:`pegboard.link.board` (what the board should show),
:mod:`pegboard.link.layout` (which LED is which hole), :mod:`pegboard.link.protocol` (the
sans-I/O wire format). Adapters: :mod:`pegboard.link.serial_link` (pyserial, driven by
``poll(now)``) and :mod:`pegboard.link.fwsim` (the real firmware under the MicroPython unix port
on a pseudo-terminal, for the simulator and the tests).
"""
