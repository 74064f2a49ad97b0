"""Invisible characters do not make a name pass for another (issue 42, item 6).

Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt) and the code points
that are printable yet drawn as nothing (U+2800 BRAILLE PATTERN BLANK, the Hangul
fillers...) are refused in a display name on the wire and dropped by the skeleton, so
``amel⠀`` beside a remembered ``amel`` with another key is the loud "changed key", not
"new"."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chkobba_p2p._shell.known import KnownPlayers, Recognition
from chkobba_p2p.link.messages import Lobby, display_name
from chkobba_p2p.text import INVISIBLE_RANGES, first_invisible, is_invisible, skeleton
from chkobba_p2p.wire.codec import ErrorCode, ProtocolError

A, B = bytes(range(32)), bytes(range(1, 33))

#: The ones the issue found passing (printable to Python, drawn as nothing), and more.
REPORTED = ["\u2800", "\u3164", "\u115f", "\u1160", "\uffa0", "\u034f", "\u17b4", "\u17b5",
            "\u00ad", "\u061c", "\u180e", "\u200b", "\u2060", "\u2064", "\ufe0f", "\ufeff",
            "\U000e0041", "\U000e0100", "\U0001d159", "\U0001d173"]

invisible = st.one_of(
    st.sampled_from(REPORTED),
    st.integers(0, len(INVISIBLE_RANGES) - 1).flatmap(
        lambda i: st.integers(*INVISIBLE_RANGES[i]).map(chr)))
visible_names = st.text(st.characters(codec="utf-8", categories=("L", "N")), min_size=1,
                        max_size=20)


def test_the_ranges_are_default_ignorable_and_blanks():
    ranges = sorted(INVISIBLE_RANGES)
    assert all(lo <= hi for lo, hi in ranges)
    assert all(a[1] < b[0] for a, b in zip(ranges, ranges[1:]))  # no overlap
    for ch in REPORTED:
        assert is_invisible(ch), f"U+{ord(ch):04X}"
    # The joiners are default ignorable too: a name holds none (they were never printable).
    assert is_invisible("\u200d") and is_invisible("\u200c")
    for ch in "aZ09 -_'.\u00e9\u0627\u4e2d\u2764":
        assert not is_invisible(ch), ch


def test_a_range_holds_its_two_ends_and_not_the_code_points_beside_them():
    # The ranges are searched by bisection (a set of every character would weigh 450 kB
    # in every peer): the edges are where a search goes wrong.
    inside = {c for lo, hi in INVISIBLE_RANGES for c in range(lo, hi + 1)}
    for lo, hi in INVISIBLE_RANGES:
        for code in (lo - 1, lo, lo + 1, hi - 1, hi, hi + 1):
            assert is_invisible(chr(code)) == (code in inside), f"U+{code:04X}"
    assert not is_invisible(chr(0)) and not is_invisible(chr(0x10FFFF))
    assert not is_invisible("") and not is_invisible("\u200b\u200b")  # one character only
    assert first_invisible("ab\u2800c\u00ad") == "\u2800" and first_invisible("abc") is None


@given(visible_names, invisible, st.data())
def test_an_invisible_character_anywhere_is_dropped_by_the_skeleton(name, ch, data):
    at = data.draw(st.integers(0, len(name)))
    marked = name[:at] + ch + name[at:]
    assert skeleton(marked) == skeleton(name)
    assert first_invisible(marked) == ch


@given(visible_names, invisible, st.data())
def test_display_name_refuses_an_invisible_character(name, ch, data):
    at = data.draw(st.integers(0, len(name)))
    marked = (name[:at] + ch + name[at:])[:32]
    if ch not in marked:
        marked = marked[:-1] + ch
    with pytest.raises(ProtocolError) as caught:
        display_name(marked)
    assert caught.value.error_code is ErrorCode.BAD_FIELD
    assert "\n" not in str(caught.value)
    assert display_name(name) == name or not name.isprintable()


@pytest.mark.parametrize("ch", REPORTED)
def test_amel_and_a_blank_beside_a_remembered_amel_is_a_changed_key(tmp_path, ch):
    known = KnownPlayers(tmp_path / "known_players")
    known.remember([("amel", A)])
    for name in ("amel" + ch, ch + "amel", "am" + ch + "el"):
        assert skeleton(name) == skeleton("amel"), unicodedata.name(ch, hex(ord(ch)))
        seen = known.check(name, B)
        assert seen.status is Recognition.CHANGED and seen.like == "amel", name
        with pytest.raises(ProtocolError, match="invisible character"):
            display_name(name)
    assert display_name("amel") == "amel"


def test_a_lobby_seat_named_with_a_blank_is_refused():
    lobby = {"t": "lobby", "seats": [{"key": A, "name": "amel"},
                                     {"key": B, "name": "amel\u2800"}]}
    with pytest.raises(ProtocolError, match="invisible"):
        Lobby.from_wire(lobby)


@pytest.mark.slow
def test_a_host_with_a_blank_in_its_own_name_says_so_in_one_line(tmp_path, capsys,
                                                                 monkeypatch):
    """A host's own ``--name`` that its peers would refuse: one line, exit 2, no
    traceback (the seat is checked before the table opens)."""
    from chkobba_cli.main import main

    monkeypatch.setenv("CHKOBBA_DATA_DIR", str(tmp_path / "data"))
    assert main(["host", "--headless", "--port", "0", "--bind", "127.0.0.1", "--no-beacon",
                 "--no-upnp", "--name", "amel\u2800",
                 "--log", str(tmp_path / "x.chklog")]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err, err
    assert "'amel\\u2800'" in err and "invisible character (U+2800)" in err, err
