"""The spectator's last lines name its copy of the log whole, at 80x24 and 120x40, in
English and French: at 80 columns the full path was broken inside its name
("…/logs/20261206T" then "235135Z-watch-cd2e8b.chklog"), so a spectator who copied it from
the screen had two pieces and no file; then it was shortened ("…/logs/NAME"), which names
no file either.  Now whole, broken after a "/" where a line has no room for it, on the
screen and in the lines printed after it closes."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from screenshot import screen_rows

from chkobba_cli.tui.screens.watching import WatchView, _build
from chkobba_p2p import Lobby, WatchOutcome
from chkobba_p2p.observe.verdict import VALID, Verdict

NAME = "20261206T235135Z-watch-cd2e8b.chklog"
LOG = Path("/home/someone/.local/share/chkobba-p2p/logs") / NAME


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang, words", [("en", "Your copy of the log: chkobba replay"),
                                         ("fr", "Votre copie du journal : chkobba replay")])
def test_the_spectators_log_is_named_whole_on_its_line(size, lang, words):
    view = WatchView(lang=lang, pace=0, address="127.0.0.1:7777", name="sam")
    view.show(Lobby((("hana", "0123-4567-89ab-cdef"), ("sami", "89ab-cdef-0123-4567"))))
    view.finished(WatchOutcome(Verdict(VALID, "", ""), LOG, entries=40))
    ui = SimpleNamespace(size=size)
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        ui.app = _build(view, False, lambda: ui.size, on_key=lambda: None,
                        quit=lambda: None)
        rows = screen_rows(ui, *size)
    left = [r.split("│")[0].rstrip() for r in rows]
    flat = " ".join(" ".join(left).split())
    assert words in flat, "\n".join(rows)
    # Any row that shows a piece of the file's name shows all of it.
    pieces = [r for r in left if "Z-watch" in r or "20261206T" in r]
    assert pieces and all(NAME in r for r in pieces), "\n".join(rows)
    # The whole path, never left out in its middle: its rows, joined, are the path.
    at = next(i for i, r in enumerate(left) if words.split(":")[0] in r)
    shown = "".join(r.strip() for r in left[at:at + 4]
                    if "/" in r or r.strip().endswith(".chklog"))
    assert "…" not in shown and shown.endswith(str(LOG)), "\n".join(rows)
    # On a row of its own or after the command, never cut at the pane's edge.
    assert all(len(r) <= size[1] for r in rows)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_spectators_log_printed_on_exit_is_whole_within_80_columns(monkeypatch, lang):
    """After the screen closes, ``chkobba watch`` prints the end again (its commentary): on a
    terminal of 80 columns, fitted at words, the path whole and broken after a "/" (the
    terminal broke it where its edge fell: "…/logs/20" then "261206T…")."""
    import io

    from chkobba_cli.outputs.commentary import Commentary
    from chkobba_cli.tui.parts.render import line_text

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setenv("COLUMNS", "80")
    view = WatchView(lang=lang, pace=0, address="127.0.0.1:7777", name="sam")
    view.show(Lobby((("hana", "0123-4567-89ab-cdef"), ("sami", "89ab-cdef-0123-4567"))))
    view.finished(WatchOutcome(Verdict(VALID, "", ""), LOG, entries=40))
    out = Terminal()
    narrator = Commentary(out=out, lang=lang)
    for line in view.end_lines(1000):
        narrator.say(line_text(line).strip())
    lines = out.getvalue().splitlines()
    assert lines and all(len(x) < 80 for x in lines), lines
    flat = "".join(x.strip() for x in lines if "/" in x or x.strip().endswith(".chklog"))
    assert str(LOG) in flat and "…" not in flat, lines
