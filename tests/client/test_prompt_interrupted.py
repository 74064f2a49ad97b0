"""walk6 (fr): Ctrl-C at the first run's name question printed "interrompu" on the
question's own line ("Votre nom à la table (...) : ^Cinterrompu"): the answer's line is
ended first, so that the word stands on its own line; Ctrl-D ends it too (the default
name is then used)."""

from __future__ import annotations

import pytest

from chkobba_cli.support import settings
from chkobba_cli.words.i18n import Translator


def _stop(exc: type[BaseException]):
    def ask(prompt: str) -> str:
        print(prompt, end="")
        raise exc
    return ask


def test_ctrl_c_at_the_name_question_ends_its_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(settings, "load", lambda: {})
    with pytest.raises(KeyboardInterrupt):
        settings.player_name(None, Translator("fr"), ask=_stop(KeyboardInterrupt))
    out = capsys.readouterr().out
    assert out == Translator("fr")("name_prompt") + "\n", repr(out)


def test_ctrl_d_at_the_name_question_ends_its_line(monkeypatch, capsys):
    monkeypatch.setattr(settings, "load", lambda: {})
    assert settings.player_name(None, Translator("en"), ask=_stop(EOFError)) is None
    assert capsys.readouterr().out.endswith("\n")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_ctrl_d_at_the_name_question_says_the_name_played(monkeypatch, capsys, lang):
    """walk6: Ctrl-D at the name question played under the system's user name without
    saying so; now the player is told the name and how to change it, nothing saved."""
    monkeypatch.setattr(settings, "load", lambda: {})
    saved: list[dict] = []
    monkeypatch.setattr(settings, "save", saved.append)
    t = Translator(lang)
    name = settings.player_name(None, t, ask=_stop(EOFError), fallback=lambda: "root")
    assert name == "root"
    out = capsys.readouterr().out
    assert out.endswith(t("name_none", name="root") + "\n"), repr(out)
    assert "root" in out and "--name" in out
    assert saved == []  # asked again on the next run


def test_five_refused_names_say_the_name_played(monkeypatch, capsys):
    monkeypatch.setattr(settings, "load", lambda: {})
    t = Translator("en")
    name = settings.player_name(None, t, ask=lambda p: "   ", fallback=lambda: "root")
    assert name == "root"
    assert capsys.readouterr().out.endswith(t("name_none", name="root") + "\n")
