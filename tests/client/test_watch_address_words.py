"""The spectator's lobby, as a newcomer reads it at 80x24 and 120x40, in English and
French: a join code pasted to ``chkobba watch`` (HOST:PORT#KEY+SECRET) was shown whole
after "Watching the table at", broken inside at 80 columns and with the table's seat
secret on show; the table's HOST:PORT is what the spectator uses.  And one spectator
"regarde" in French ("regardent : sam" was the plural for one name)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from screenshot import screen_rows

from chkobba_cli.tui.screens.watching import WatchView, _build
from chkobba_p2p import Lobby, Spectators

FP = "675c-39b0-7198-80d0"
SECRET = "irnd-zlpf-hjv2-4ldw"
CODE = f"127.0.0.1:17777#{FP}+{SECRET}"


def _rows(lang: str, size: tuple[int, int], watchers: tuple[str, ...]) -> list[str]:
    view = WatchView(lang=lang, pace=0, address=CODE, name="sam")
    view.on_event(Lobby((("alice", FP), None)))
    view.on_event(Spectators(watchers, 1 if len(watchers) == 1 else 4))
    ui = SimpleNamespace(size=size)
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        ui.app = _build(view, False, lambda: ui.size, on_key=lambda: None,
                        quit=lambda: None)
        return screen_rows(ui, *size)


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang, watching", [("en", "Watching the table at 127.0.0.1:17777 as"),
                                            ("fr", "Vous regardez la table 127.0.0.1:17777")])
def test_a_join_code_pasted_to_watch_shows_the_tables_address(size, lang, watching):
    rows = _rows(lang, size, ("sam",))
    screen = "\n".join(rows)
    left = " ".join(" ".join(r.split("│")[0] for r in rows).split())
    assert watching in left, screen
    assert SECRET not in screen.replace("\n", "") and "+irnd" not in screen, screen
    assert f"17777#{FP}" not in left, screen  # the key is not the spectator's to read


@pytest.mark.parametrize("lang, one, two", [
    ("en", "Spectators: up to 1 (watching: sam)", "Spectators: up to 4 (watching: sam, ali)"),
    ("fr", "Spectateurs : jusqu'à 1 (regarde : sam)",
     "Spectateurs : jusqu'à 4 (regardent : sam, ali)")])
def test_one_spectator_and_two_are_said_in_the_right_number(lang, one, two):
    for watchers, said in ((("sam",), one), (("sam", "ali"), two)):
        rows = _rows(lang, (24, 80), watchers)
        left = " ".join(" ".join(r.split("│")[0] for r in rows).split())
        assert said in left, "\n".join(rows)
