"""The line printed after the screen closes, when there was no game, is in one language:
at 80 columns a French player read "error: Impossible de rejoindre ..." (and "error: Tor
n'a pas pu joindre le réseau Tor ..."); the library's own English keeps "error:"."""

from __future__ import annotations

import pytest

from chkobba_cli.words.ending import print_error
from chkobba_cli.words.i18n import Translator


@pytest.mark.parametrize("lang, first", [("en", "error: Could not join 127.0.0.1:1"),
                                         ("fr", "erreur : Impossible de rejoindre "
                                                "127.0.0.1:1")])
def test_the_error_line_is_in_the_players_language(capsys, monkeypatch, lang, first):
    monkeypatch.setenv("COLUMNS", "80")
    t = Translator(lang)
    print_error(t("join_error", addr="127.0.0.1:1", why=t("err_secret_required")), t)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith(first), lines
    assert all(len(x) < 80 for x in lines), lines
    assert all(not x.startswith((":", ";", "?")) for x in lines), lines
    assert (lang == "fr") == ("error" not in " ".join(lines)), lines
    print_error("the library's words")  # no language given: English, as before
    assert capsys.readouterr().err == "error: the library's words\n"
