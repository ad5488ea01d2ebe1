"""The one connection policy of both servers (:class:`pegboard.web.server_conn.Guard`, which
the scoreboard and the standings page both run under), rule by rule as docs/security.md
states it: when every place is taken, the oldest connection still waiting for its request
gives way to a newcomer; when all are being answered, the oldest of the address holding the
most, if it holds at least two more than the newcomer's; else the newcomer is closed."""

from __future__ import annotations

from pegboard.web.server_conn import Guard, Limits


class Connection:
    """A connection as the guard sees it: its address, and whether it was dropped."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.dropped = False

    def drop(self) -> None:
        self.dropped = True


LIMITS = Limits(connections=8, per_client=4, reserve=0)


def held(guard: Guard, address: str, *, answering: bool) -> Connection:
    conn = Connection(address)
    assert guard.admit(conn)  # type: ignore[arg-type]
    if answering:
        guard.answering(conn)  # type: ignore[arg-type]
    return conn


def test_the_oldest_connection_waiting_for_its_request_gives_way_first() -> None:
    guard = Guard(LIMITS)
    busy = [held(guard, f"10.0.0.{n % 4}", answering=True) for n in range(6)]
    waiting = [held(guard, "10.0.1.1", answering=False) for _ in range(2)]
    newcomer = Connection("10.0.2.1")
    assert guard.admit(newcomer)  # type: ignore[arg-type]
    assert waiting[0].dropped and not waiting[1].dropped
    assert not any(conn.dropped for conn in busy)


def test_when_all_are_answering_the_busiest_address_gives_way_to_a_newcomer() -> None:
    guard = Guard(LIMITS)
    greedy = [held(guard, "10.0.0.1", answering=True) for _ in range(4)]
    others = [held(guard, f"10.0.0.{n}", answering=True) for n in range(2, 6)]
    newcomer = Connection("10.0.3.1")
    assert guard.admit(newcomer)  # type: ignore[arg-type]
    assert greedy[0].dropped and not any(conn.dropped for conn in greedy[1:] + others)


def test_a_newcomer_is_closed_only_when_no_address_holds_two_more_than_its_own() -> None:
    guard = Guard(LIMITS)
    everyone = [held(guard, f"10.0.0.{n % 4}", answering=True) for n in range(8)]  # 2 each
    one_more = Connection("10.0.0.0")  # an address holding 2 already: none holds 4
    assert not guard.admit(one_more)  # type: ignore[arg-type]
    newcomer = Connection("10.0.4.1")  # holding none: an address with 2 gives way
    assert guard.admit(newcomer)  # type: ignore[arg-type]
    assert sum(conn.dropped for conn in everyone) == 1


def test_one_address_over_its_share_is_closed_whatever_room_there_is() -> None:
    guard = Guard(LIMITS)
    mine = [held(guard, "10.0.0.1", answering=False) for _ in range(4)]
    extra = Connection("10.0.0.1")
    assert not guard.admit(extra)  # type: ignore[arg-type]
    assert not any(conn.dropped for conn in mine)
