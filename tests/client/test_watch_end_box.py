"""The spectator's end in a box, as the players' "Match over" box (issue 43): who won
and by how much, the hands played, the verdict of every entry, the log copy and the
command that replays it.  It was one line under the table ("Match over: peer1 wins
14-3.") among the hands' cards, easy to miss.  Read off the whole watch screen as drawn
(:func:`screenshot.screen_rows` on :func:`chkobba_cli.tui.screens.watching._build`), at 80x24
and 120x40, in English and French, at 2, 3 and 4 players, and after a flag."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from screenshot import screen_rows
from support.audit import a_match
from test_tui_watching import _feed, _flagged

from chkobba_cli.tui.screens.watching import WatchView, _build
from chkobba_p2p._shell.watch import WatchOutcome

WORDS = {
    "en": {"title": "Match over", "won": r"(\S+(?: & \S+)?) wins? (\d+)", "hands": "hands played: ",
           "valid": "Every entry checked: VALID.", "log": "Your copy of the log of this game:",
           "replay": "Replay and audit it with:", "keys": "s score sheet · q quit",
           "on_time": "hana wins on time", "lost": "sami lost on time"},
    "fr": {"title": "Partie terminée", "won": r"(\S+(?: & \S+)?) gagnen?t? (\d+)",
           "hands": "manches jouées : ", "valid": "Chaque entrée vérifiée : VALIDE.",
           "log": "Votre copie du journal de cette partie :",
           "replay": "Pour la rejouer et la vérifier :", "keys": "s feuille de marque · q quitter",
           "on_time": "hana gagne au temps", "lost": "sami perd au temps"},
}



# Its tests share one worker (pytest-xdist's loadgroup), with test_watch_host_gone's,
# which read the same matches: they are played once per run, not once on each worker
# and once more for each module.
pytestmark = pytest.mark.xdist_group("test_watch_end_box")


@functools.cache
def _played() -> dict[int, object]:
    return {n: a_match(n) for n in (2, 3, 4)}


@pytest.fixture(scope="module")
def played():
    return _played()


def _screen(view: WatchView, size: tuple[int, int]) -> list[str]:
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        ui = SimpleNamespace(size=size)
        ui.app = _build(view, False, lambda: ui.size, on_key=lambda: None, quit=lambda: None)
        return screen_rows(ui, *size)


def _box(rows: list[str]) -> list[str]:
    """The inside of the box drawn over the table, a line a row (None if no box)."""
    top = next((i for i, r in enumerate(rows) if "┌" in r and "┐" in r), None)
    assert top is not None, "no box on the screen:\n" + "\n".join(rows)
    left, right = rows[top].index("┌"), rows[top].rindex("┐")
    inside = []
    for r in rows[top + 1:]:
        if r[left:left + 1] == "└":
            return inside
        assert r[left] == "│" and r[right] == "│", "\n".join(rows)
        inside.append(r[left + 1:right].strip())
    raise AssertionError("the box has no bottom:\n" + "\n".join(rows))


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_spectator_ends_in_a_match_over_box(played, tmp_path, size, lang, players):
    w = WORDS[lang]
    game = played[players]
    names = [s.name for s in game.sessions[0].table.seats]
    view = WatchView(lang=lang, pace=0, address="127.0.0.1:7777", name="amira")
    _feed(view, game.sessions[0].bodies)
    log = tmp_path / "chkobba-watch-20261207-0130-127.0.0.1-7777.log"
    log.write_text("")
    view.finished(WatchOutcome(view.verdict, log, stop_reason="host_closed"))
    rows = screen_rows_checked(view, size)
    box = _box(rows)
    flat = " ".join(box)
    assert box[0] == w["title"], box
    m = re.search(w["won"], flat)
    assert m is not None, box
    done = view.state.done
    assert done is not None
    winners = m.group(1).split(" & ")
    assert all(n in names for n in winners) and int(m.group(2)) == max(done.totals), box
    assert f"{w['hands']}{done.hands}" in box, box
    assert w["valid"] in box, box
    # The log copy, whole on its own lines (broken after a "/" only; it was left out in
    # its middle at 80 columns), then the command that replays it, with the path whole.
    at, cmd = box.index(w["log"]), box.index(w["replay"])
    assert Path("".join(box[at + 1:cmd])).expanduser() == log, box
    assert box[cmd + 1].startswith("chkobba replay"), box
    end = next(i for i in range(cmd + 1, len(box)) if not box[i])
    assert Path("".join(box[cmd + 1:end])[len("chkobba replay"):].strip()).expanduser() \
        == log, box
    assert "…" not in "".join(box[at:end]), box
    assert box[-1] == w["keys"], box


def screen_rows_checked(view: WatchView, size: tuple[int, int]) -> list[str]:
    rows = _screen(view, size)
    assert len(rows) == size[0] and all(len(r) <= size[1] for r in rows)
    return rows


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_flag_is_said_in_the_box_with_the_winner_first(size, lang):
    w = WORDS[lang]
    view = _flagged(lang)
    box = _box(screen_rows_checked(view, size))
    assert box[0] == w["title"], box
    flat = " ".join(" ".join(box).split())
    assert w["on_time"] in flat and w["lost"] in flat, box
    assert flat.index(w["on_time"]) < flat.index(w["lost"]), box


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_box_makes_way_for_the_score_sheet(lang):
    view = _flagged(lang)
    assert view.ended()
    view.sheet = True  # s: the sheet, the box gone until it closes
    assert not view.ended()
    rows = screen_rows_checked(view, (24, 80))
    assert not any("┌" in r for r in rows), "\n".join(rows)
