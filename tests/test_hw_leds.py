"""The LED board adapter: the app's pegs become board states; link health becomes events."""

from __future__ import annotations

from pegboard.app.effects import LedSide, UpdateLeds
from pegboard.app.inputs import LinkStatus
from pegboard.config import Config, LedsConfig, LinkConfig
from pegboard.device.leds import LinkedBoard, open_led_board
from pegboard.link.board import BoardState


class StubLink:
    def __init__(self) -> None:
        self.boards: list[BoardState] = []
        self.is_up = False
        self.polls: list[float] = []
        self.closed = False

    def show(self, board: BoardState) -> None:
        self.boards.append(board)

    def poll(self, now: float) -> None:
        self.polls.append(now)

    def close(self) -> None:
        self.closed = True


def test_pegs_become_board_states_with_the_mover() -> None:
    link = StubLink()
    board = LinkedBoard(link, colours=[(255, 0, 0), (0, 0, 255)])
    board.show(UpdateLeds((LedSide(10, 4), LedSide(6, 0))))
    board.show(UpdateLeds((LedSide(10, 4), LedSide(9, 6))))
    board.show(UpdateLeds((LedSide(125, 110, winner=True), LedSide(9, 6))))
    first, second, third = link.boards
    assert first.front == (10, 6) and first.back == (4, 0) and first.last is None
    assert second.last == 1
    assert third.front == (121, 9) and third.winner == 0 and third.last == 0
    assert third.colours == ((255, 0, 0), (0, 0, 255))


def test_four_sides_are_not_sent() -> None:
    link = StubLink()
    LinkedBoard(link).show(UpdateLeds(tuple(LedSide(1, 0) for _ in range(4))))
    assert link.boards == []


def test_link_changes_are_reported_once_after_the_grace_period() -> None:
    link = StubLink()
    board = LinkedBoard(link, poll_s=0.05, grace_s=3.0, start=100.0)
    assert board.poll(100.0) == []  # down, but still looking for the board
    assert board.poll(101.0) == []
    assert board.poll(103.0) == [LinkStatus(up=False, detail="LEDs off")]
    assert board.poll(104.0) == []  # no repeat
    link.is_up = True
    assert board.poll(104.01) == []  # not due yet: polled every 50 ms
    assert board.next_deadline() == 104.05
    assert board.poll(104.05) == [LinkStatus(up=True, detail="")]
    assert link.polls == [100.0, 101.0, 103.0, 104.0, 104.05]
    board.close()
    assert link.closed


def test_no_board_configured_means_no_link() -> None:
    config = Config()
    assert open_led_board(config.link, config.leds, 0.0) is None


def test_configured_board_gets_the_layout_from_config() -> None:
    board = open_led_board(LinkConfig(device="/dev/serial/by-id/usb-none"),
                           LedsConfig(count=242, sides=2, brightness=0.5), 0.0)
    assert board is not None
    link = board.link
    assert link.config.tracks == 2  # type: ignore[attr-defined]
    assert link.config.brightness == 128  # type: ignore[attr-defined]
    board.close()
