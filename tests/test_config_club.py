"""``[club]`` in the config file: the board's club settings, each bad value named by its key."""

from __future__ import annotations

import pytest

from pegboard.config import ClubConfig, parse_config, to_toml
from tests.support.configs import refusal

BOARD = ('[club]\nenabled = true\nclub = "oakville"\nboard = "board-7"\n'
         'broker = "192.168.1.10:1883"\nuser = "board-7"\n'
         'password_file = "/etc/pegboard/club.password"\nnight = 12\ntable = 7\nlock = true\n'
         'serve_user = "standings"\nserve_password_file = "/etc/pegboard/standings.password"\n'
         'ca_file = "/etc/pegboard/club-ca.crt"\n')


def test_a_club_board_reads_every_setting_and_writes_them_back() -> None:
    config = parse_config(BOARD)
    assert config.club == ClubConfig(
        enabled=True, club="oakville", board="board-7", broker="192.168.1.10:1883",
        user="board-7", password_file="/etc/pegboard/club.password", night=12, table=7,
        lock=True, serve_user="standings",
        serve_password_file="/etc/pegboard/standings.password",
        ca_file="/etc/pegboard/club-ca.crt")
    assert parse_config(to_toml(config)) == config
    assert parse_config("").club.enabled is False


@pytest.mark.parametrize(("text", "expected"), [
    ('board = "a/b"', 'club.board = "a/b" is not accepted; allowed: "" or this board\'s id'),
    ('club = ""', 'club.club = "" is not accepted; allowed: the club\'s id'),
    ('broker = "host:99999"', 'club.broker = "host:99999" is not accepted; allowed: "" or '
     "the broker as HOST or HOST:PORT"),
    ('broker = "mqtt://host"', "club.broker"),
    ("night = 0", "club.night = 0 is not accepted; allowed: a whole number 1-9999"),
    ('table = "7"', 'club.table = "7" is not accepted'),
    ('lock = "yes"', 'club.lock = "yes" is not accepted; allowed: true or false'),
    ('password_file = "club.password"', "club.password_file = \"club.password\" is not "
     "accepted; allowed: \"\" or the absolute path"),
    ("nite = 3", "unknown key club.nite (did you mean club.night?)"),
    ('enabled = true\nbroker = "h:1883"', 'club.enabled = true but club.board = ""'),
    ('enabled = true\nboard = "b1"', 'club.enabled = true but club.broker = ""'),
    ('password_file = "/etc/p"', 'club.password_file is set but club.user = ""'),
    ('user = "board-7"', 'club.user is set but club.ca_file = ""; allowed: the club\'s '
     "certificate authority"),
    ('serve_user = "standings"', 'club.serve_user is set but club.ca_file = ""'),
    ('ca_file = "club-ca.crt"', 'club.ca_file = "club-ca.crt" is not accepted'),
    ('serve_password_file = "/etc/p"', 'club.serve_password_file is set but '
     'club.serve_user = ""'),
    ('serve_user = "a b"', 'club.serve_user = "a b" is not accepted'),
    ("lock = true", "club.lock = true but club.enabled = false; allowed: the tournament lock "
     "on a club board"),
])
def test_a_bad_club_setting_is_named_by_its_key(text: str, expected: str) -> None:
    assert expected in refusal("[club]\n" + text, "board.toml")
