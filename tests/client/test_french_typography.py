"""French puts a space before "!": the event pane wraps at spaces and once left the "!"
of "CHKOBBA !" alone at the start of a line.  The space is a no-break one."""

from __future__ import annotations

from chkobba_cli.tui.parts.render import line_text, wrap_line
from chkobba_cli.words.i18n import Translator


def test_chkobba_and_its_exclamation_mark_stay_on_one_line():
    word = Translator("fr")("ev_chkobba")
    assert word.replace("\u00a0", " ") == "CHKOBBA !"
    for lead in range(1, 40):
        line = [("", "x" * lead + " "), ("class:chkobba", word)]
        for width in range(len(word), 48):  # narrower, the word itself is broken
            lines = [line_text(x).strip() for x in wrap_line(line, width)]
            assert all(not x.startswith("!") for x in lines), (lead, width, lines)
