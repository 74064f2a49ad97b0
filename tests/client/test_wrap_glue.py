"""Lines broken where a reader stumbles (issue 43, the newcomer walk at 9c55980): the
events column broke the bridges' address ("https://bridges.torprojec" then "t.org") and a
number from its unit ("… within 60" then "s: the seat is free"); the French luck box
started a line with ":" (French puts a space before ":", a non-breaking one); the host's
lobby broke a record against a long name after "vous" ("…, vous" then "7–5").  Read off
the whole screen as drawn at 80x24 (and 120x40), in English and French, at 2, 3 and 4
players where the screen depends on it."""

from __future__ import annotations

import pytest
from screenshot import screen_rows
from test_tor_failed_friends import FAILED, _host

from chkobba_cli.tui.app import TuiApp
from chkobba_cli.tui.parts.render import line_text, wrap_line
from chkobba_cli.tui.parts.trust import seat_lines
from chkobba_cli.words.i18n import Translator
from chkobba_p2p._shell.peer import Lobby, Outcome
from chkobba_p2p.link.events import ReadyLapsed
from chkobba_p2p.observe.history import Record
from chkobba_p2p.transcript import events as S

URL = "https://bridges.torproject.org"
SIZES = [(24, 80), (40, 120)]


def _events(rows: list[str]) -> list[str]:
    """The events column's rows (right of the lobby's or table's bar), stripped."""
    return [r.split("│", 1)[1].strip() for r in rows[1:-1] if "│" in r]


def _starts_badly(rows: list[str]) -> list[str]:
    return [r for r in rows if r[:1] in set(":;!?»%")]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_events_column_keeps_an_address_whole_and_a_number_with_its_unit(
        app_session, size, lang):
    ui = _host(lang, ("sami", b"\x07" * 32))
    ui.on_event(FAILED)
    rows = screen_rows(ui, *size)
    events = _events(rows)
    # The address, said only here, whole to be copied (walk5: it was left out in its
    # middle, "https://brid…roject.org"): on one row, or (too long for the column)
    # broken after a "/" only; never cut inside a name ("torprojec" then "t.org").
    at = next(i for i, r in enumerate(events) if "https://" in r)
    shown = events[at][events[at].index("https://"):]
    if shown == "https://":
        shown += events[at + 1]
    assert shown.split(" ")[0].rstrip(").") == URL, "\n".join(rows)
    assert "…" not in "".join(events), "\n".join(rows)
    assert not any(r.startswith(("t.org", "org")) for r in events), "\n".join(rows)
    assert not _starts_badly(events), "\n".join(rows)
    # "30 s", "14 %": never a number at a row's end and its unit on the next row.
    for a, b in zip(events, events[1:], strict=False):
        assert not (a[-1:].isdigit() and b.split(" ")[0] in {"s", "%"}), "\n".join(rows)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_lapsed_ready_check_keeps_60_s_together_whatever_the_names_length(
        app_session, lang, players):
    """Every length of name, so that "60" falls at every place of the column's rows."""
    from test_lobby_fits_24 import FP, _lobby

    for n in range(1, 24):
        name = ("abcdefghijklmnopqrstuvwxyz" * 2)[:n]
        ui = TuiApp(kind="host", lang=lang, seat=0, players=players, address="10.0.0.2",
                    my_fingerprint=FP)
        ui.port = 7452
        ui._show_event(_lobby(players, 0))
        ui.on_event(ReadyLapsed(1, name, 60))
        events = _events(screen_rows(ui, 24, 80))
        text = " ".join(events)
        assert "60 s" in text, events
        for a, b in zip(events, events[1:], strict=False):
            assert not (a.endswith("60") and b.startswith("s")), events
        assert not _starts_badly(events), events


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_luck_box_never_starts_a_line_with_a_colon(app_session, size, lang, players):
    t = Translator(lang)
    names = ("amel", "sami", "bilel", "dora")[:players]
    ui = TuiApp(kind="play", lang=lang, seat=0, players=players)
    ui.state = ui.state.apply(Lobby(tuple((n, f"{i:04x}") for i, n in enumerate(names))))
    ui.state = ui.state.apply(S.HandStarted(1, 0))
    ui.finished = True
    ui.outcome = Outcome(0, None, None, done=S.MatchDone(0, (11,) + (4,) * (players - 1), 3))
    ui.luck_shown = True
    # Every sentence of the account, with numbers of every width in French and English.
    sentences = [t("luck_title", n=12), t("luck_how"), t("luck_proven", by=t("luck_by_2"))]
    for you, them in (("0,9", "12,4"), ("10,25", "3,1"), ("1,5", "0,94")):
        sentences += [t("luck_dealt_you", you=you, them=them, fair="5,1"),
                      t("luck_play_you", you=you, them=them),
                      t("luck_dealt_names", list=f"amel {you}, sami {them}", fair="5,1"),
                      t("luck_play_names", list=f"amel & bilel {you}, sami & dora {them}")]
    for cols in range(60, size[1] + 1, 3):  # the box's width with the screen's
        ui.luck.lines = sentences
        rows = screen_rows(ui, size[0], cols)
        inside = [r[r.index("│") + 1:r.rindex("│")].strip() for r in rows
                  if r.count("│") >= 2]
        assert inside and not _starts_badly(inside), "\n".join(rows)


def test_french_punctuation_and_units_stay_with_their_word_when_wrapping():
    for width in range(14, 40):  # (the longest glued word: "« bonjour » !", 13)
        for text in ("Chance : vous avez reçu des cartes valant 3,1 points, eux 0,94 point",
                     "arrêté à 14 %, connexion à un relais ; « bonjour » ! 60 s ? 2 min"):
            rows = [line_text(x) for x in wrap_line([("", text)], width)]
            assert not _starts_badly([r.strip() for r in rows]), rows
            for a, b in zip(rows, rows[1:], strict=False):
                assert not (a.rstrip()[-1:].isdigit()
                            and b.split()[0] in {"s", "min", "%", "point", "points"}), rows
                assert not a.rstrip().endswith("«"), rows


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", ["sami", "Mohamed-Aziz", "Khadija Trabelsi"])
def test_a_long_record_line_breaks_after_its_colon_not_inside_the_count(
        app_session, lang, players, name):
    from test_lobby_fits_24 import FP, _lobby

    t = Translator(lang)
    ui = TuiApp(kind="host", lang=lang, seat=0, players=players, address="10.0.0.2",
                my_fingerprint=FP)
    ui.port = 7452
    lobby = _lobby(players, 0)
    seats = list(lobby.seats)
    seats[1] = (name, seats[1][1])
    ui._show_event(Lobby(tuple(seats), keys=lobby.keys, ready=lobby.ready))
    screen_rows(ui, 24, 80)  # (the size the lobby's width comes from)
    width = ui._left_width() - 1
    rows = [line_text(x) for x in seat_lines(ui.state, t, None, width, True,
                                             lambda key: Record(12, 7, 5))]
    count = t("record_vs", name="\0", n=12, wins=7, losses=5).split("\0")[1].lstrip(" :")
    assert all(len(r) <= width for r in rows), rows
    assert sum(count in r for r in rows) == players - 1, rows  # whole on one row each
