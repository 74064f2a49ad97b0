"""Everyone at the table sees the game (issue 26), read off a real terminal (pexpect +
pyte, 80x24, English and French): ``chkobba watch`` draws the players' table from no
seat (the table cards, whose turn it is, every name), asks a name once as ``play`` does
and the players see it; the joiner's lobby shows the terms (rules, clocks, spectators)
before Enter, and a seat not ready says "not ready".

Every wait polls the screen against a deadline; nothing sleeps a fixed time.
"""

from __future__ import annotations

import json
import re

import pytest
from test_cli_person_pty import free_port, headless, listening
from test_cli_play_pty import CARD_BOX, Screen

WORDS = {
    "en": {"turn": "turn: ", "table": " Table", "watching": "watching: amira",
           "rules": "Rules: ", "clocks": "Clocks: 1 min 30 s per move, 4 min away",
           "spectators": "Spectators: up to 3", "not_ready": "not ready",
           "header": "watching"},
    "fr": {"turn": "à jouer : ", "table": " Table", "watching": "spectateurs : amira",
           "rules": "Règles : ", "clocks": "Horloges : 1 min 30 s par coup, 4 min d'absence",
           "spectators": "Spectateurs : jusqu'à 3", "not_ready": "n'a pas encore confirmé",
           "header": "spectateur"},
}


def _table_shown(t: str, w: dict[str, str]) -> bool:
    """The spectator's table mid-hand: cards on the table, whose turn, both names."""
    return (w["table"] in t and bool(CARD_BOX.search(t)) and w["turn"] in t
            and "hana" in t and "sami" in t)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_watcher_sees_the_table_the_turn_and_the_names(tmp_path, lang):
    w = WORDS[lang]
    port = free_port()
    host = listening(headless(["host", "--headless", "--port", str(port), "--bind",
                               "127.0.0.1", "--no-beacon", "--players", "2", "--spectators",
                               "2", "--no-shuffle-proofs", "--name", "hana",
                               "--turn-timeout", "90"], tmp_path / "h"))
    bot = None
    # No --name: the spectator is asked once, as play asks (and it is remembered).
    config = tmp_path / "config"  # a first run: no name saved yet
    config.mkdir()
    watch = Screen(["watch", f"127.0.0.1:{port}", "--lang", lang, "--pace", "0.3"],
                   tmp_path / "w", env={"CHKOBBA_CONFIG_DIR": str(config)})
    try:
        watch.wait_for(lambda t: ":" in t and ("name" in t or "nom" in t), 20,
                       "the name prompt")
        watch.child.send("amira\r")
        # The lobby: the terms, hana not ready yet, the players see our name.
        lobby = watch.wait_for(lambda t: w["watching"] in t and "hana" in t, 20,
                               "the spectator's lobby with its name")
        assert w["rules"] in lobby and w["not_ready"] in lobby, lobby
        assert w["header"] in watch.screen.display[0]
        assert json.loads((config / "settings.json").read_text())["name"] == "amira"
        bot = headless(["bot", f"127.0.0.1:{port}", "--quiet", "--delay", "0.4", "--name",
                        "sami"], tmp_path / "b")
        text = watch.wait_for(lambda t: _table_shown(t, w), 60, "the table mid-hand")
        # The turn names a player, the header says both names with their points.
        turn = re.search(re.escape(w["turn"]) + r"(\w+)", text)
        assert turn and turn.group(1) in ("hana", "sami"), text
        assert "hana" in watch.screen.display[0] and "sami" in watch.screen.display[0]
        assert not re.search(r"\bseat \d|\bplace \d", text), text
        # Every line fits 80 columns and the table shows whole (pyte keeps 80).
        assert all(len(line) == 80 for line in watch.screen.display)
        watch.press("q")
        assert watch.finish(15) == 0
    finally:
        watch.kill()
        host.kill()
        if bot is not None:
            bot.kill()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_joiners_lobby_shows_the_rules_the_clocks_and_the_spectators(tmp_path, lang):
    w = WORDS[lang]
    host = Screen(["host", "--port", "0", "--bind", "127.0.0.1", "--no-beacon", "--lang", lang,
                   "--name", "amel", "--pace", "0", "--spectators", "3", "--turn-timeout",
                   "90", "--reconnect-timeout", "240"], tmp_path / "h")
    guest = None
    try:
        text = host.wait_for(lambda t: re.search(r"127\.0\.0\.1:(\d+)", t), 20, "the address")
        port = re.search(r"127\.0\.0\.1:(\d+)", text).group(1)
        guest = Screen(["join", f"127.0.0.1:{port}", "--lang", lang, "--name", "sami",
                        "--pace", "0"], tmp_path / "g")
        for s, who in ((guest, "the joiner"), (host, "the host")):
            lobby = s.wait_for(lambda t: "amel" in t and "sami" in t and w["clocks"] in t,
                               20, f"{who}'s lobby with the clocks")
            assert w["rules"] in lobby and w["spectators"] in lobby, lobby
            assert lobby.count(w["not_ready"]) == 2, lobby  # nobody pressed Enter yet
            assert "checking" not in lobby and "vérifie" not in lobby
        guest.press("\r")  # the joiner is ready: the host sees it, itself still not
        host.wait_for(lambda t: t.count(w["not_ready"]) == 1, 10, "the joiner ready")
    finally:
        host.kill()
        if guest is not None:
            guest.kill()


def test_the_end_in_words_stays_on_the_terminal_after_q(tmp_path):
    """The screen said who won; once q closed it, the terminal kept only the log's
    path: the end in words (who won, the verdict) is printed too."""
    port = free_port()
    host = listening(headless(["host", "--headless", "--port", str(port), "--bind",
                               "127.0.0.1", "--no-beacon", "--players", "2", "--spectators",
                               "1", "--no-shuffle-proofs", "--name", "hana", "--target",
                               "1"], tmp_path / "h"))
    bot = None
    watch = Screen(["watch", f"127.0.0.1:{port}", "--lang", "en", "--pace", "0",
                    "--name", "nour"], tmp_path / "w")
    try:
        watch.wait_for(lambda t: "hana" in t and "Spectators" in t, 20, "the lobby")
        bot = headless(["bot", f"127.0.0.1:{port}", "--quiet", "--name", "sami"],
                       tmp_path / "b")
        # The end box on the screen (its title, then who won), as the players' box.
        watch.wait_for(lambda t: re.search(r"Match over.*(hana|sami) wins \d+-\d+", t,
                                           re.S) is not None, 90, "the end box on the screen")
        watch.press("q")
        assert watch.finish(15) == 0
        out = " ".join(watch.raw.decode("utf-8", "replace").split("\x1b[?1049l")[-1].split())
        assert re.search(r"Match over: (hana|sami) wins \d+-\d+\.", out), out[-800:]
        assert "Every entry checked: VALID." in out and "chkobba replay" in out, out[-800:]
    finally:
        watch.kill()
        host.kill()
        if bot is not None:
            bot.kill()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_player_who_joins_after_a_spectator_is_told_who_watches(tmp_path, lang):
    """Issue 43, item 2: the spectator came first, the joiner's screen never said that
    someone watched (the host announced spectators on a change only)."""
    w = WORDS[lang]
    port = free_port()
    host = listening(headless(["host", "--headless", "--port", str(port), "--bind",
                               "127.0.0.1", "--no-beacon", "--players", "2", "--spectators",
                               "2", "--no-shuffle-proofs", "--name", "hana"], tmp_path / "h"))
    watch = Screen(["watch", f"127.0.0.1:{port}", "--lang", lang, "--name", "amira",
                    "--pace", "0"], tmp_path / "w")
    guest = None
    try:
        watch.wait_for(lambda t: "hana" in t, 20, "the spectator's lobby")
        guest = Screen(["join", f"127.0.0.1:{port}", "--lang", lang, "--name", "sami",
                        "--pace", "0"], tmp_path / "g")
        text = guest.wait_for(lambda t: w["watching"] in t, 20, "the joiner told of amira")
        assert "amira)" in text, text  # and the terms: "Spectators: up to 2 (…: amira)"
    finally:
        watch.kill()
        host.kill()
        if guest is not None:
            guest.kill()
