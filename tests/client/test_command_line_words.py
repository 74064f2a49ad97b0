"""The sub-commands' own command-line lines (a refusal, an error, a hint) are in the
reader's language (issue 41): the command's ``--lang``, else the locale's; the
``chkobba CMD:`` prefix and the exit status stay.  Run in-process (``main([...])``);
pytest's stdin and stdout are not a terminal."""

from __future__ import annotations

import os

import pytest
from support.audit import a_match

from chkobba_cli.main import main
from chkobba_cli.support.player import lock_seat
from chkobba_cli.words.i18n import Translator
from chkobba_p2p import SeatLock, load_identity, saved_game_path


def _err(capsys: pytest.CaptureFixture[str]) -> str:
    return capsys.readouterr().err.strip()


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("log") / "match.chklog"
    return str(a_match(2).write_log(path))


@pytest.mark.parametrize("lang, hand, view", [
    ("en", "chkobba replay: no hand 99 in this log ({n} hands audited)",
     "chkobba replay: --view needs a terminal"),
    ("fr", "chkobba replay: pas de manche 99 dans ce journal ({n} manches vérifiées)",
     "chkobba replay: --view a besoin d'un terminal"),
])
def test_replay_refusals(log, capsys, lang, hand, view):
    assert main(["replay", log, "--hand", "99", "--lang", lang]) == 2
    said = _err(capsys)
    n = said.split("(")[1].split()[0]
    assert said == hand.format(n=n) and int(n) > 1
    assert main(["replay", log, "--view", "--lang", lang]) == 2
    assert _err(capsys) == view


@pytest.mark.parametrize("lang, line", [
    ("en", "chkobba replay: cannot write {p} (--html): no folder {f}"),
    ("fr", "chkobba replay: impossible d'écrire {p} (--html) : pas de dossier {f}"),
])
def test_replay_cannot_write(tmp_path, capsys, lang, line):
    target = tmp_path / "nowhere" / "page.html"
    assert main(["replay", "x.chklog", "--html", str(target), "--lang", lang]) == 2
    assert _err(capsys) == line.format(p=target, f=target.parent)


def test_replay_without_lang_speaks_the_locale(log, capsys, monkeypatch):
    monkeypatch.setenv("LC_ALL", "fr_FR.UTF-8")
    assert main(["replay", log, "--workers", "-1"]) == 2
    assert _err(capsys) == "chkobba replay: --workers doit valoir 0 ou plus"
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    assert main(["replay", log, "--workers", "-1"]) == 2
    assert _err(capsys) == "chkobba replay: --workers must be 0 or more"


@pytest.mark.parametrize("lang, line", [
    ("en", "error: the terminal client needs a terminal (use 'chkobba bot' or "
           "'host --headless')"),
    ("fr", "erreur : le client plein écran a besoin d'un terminal (utilisez « chkobba bot » "
           "ou « host --headless »)"),
])
@pytest.mark.parametrize("command", [
    ["join", "127.0.0.1:7452"], ["play"],
    # host checks its port first: a socket, loopback's
    pytest.param(["host"], marks=pytest.mark.slow)])
def test_the_screen_needs_a_terminal(capsys, lang, line, command):
    assert main([*command, "--lang", lang]) == 2
    assert _err(capsys) == line


@pytest.mark.parametrize("lang, line", [
    ("en", "error: --bots must leave a seat for the host"),
    ("fr", "erreur : --bots doit laisser une place à l'hôte"),
])
@pytest.mark.parametrize("headless", [[], ["--headless"]])
def test_host_bots_leave_a_seat(capsys, lang, line, headless):
    assert main(["host", *headless, "--players", "2", "--bots", "2", "--lang", lang]) == 2
    assert _err(capsys) == line


@pytest.mark.parametrize("lang, line", [
    ("en", "chkobba join: error: "), ("fr", "chkobba join: erreur : ")])
def test_join_bad_address_keeps_the_librarys_reason_inside(capsys, lang, line):
    """An address the library refuses: its reason (by its code), after our words."""
    assert main(["join", "host:notaport", "--lang", lang]) == 2
    said = _err(capsys)
    assert said.startswith(line) and "notaport" in said


@pytest.mark.parametrize("command, lang, line", [
    (["arena", "--a", "greedy", "--b", "random", "--games", "0"], "en",
     "chkobba arena: --games must be at least 1"),
    (["arena", "--a", "greedy", "--b", "random", "--games", "0"], "fr",
     "chkobba arena: --games doit valoir au moins 1"),
    (["arena", "--ladder", "greedy", "--games", "1"], "fr",
     "chkobba arena: --ladder prend au moins deux niveaux différents parmi "),
    (["simulate", "--games", "0"], "en", "chkobba simulate: --games must be at least 1"),
    (["simulate", "--bots", " , "], "fr", "chkobba simulate: --bots demande au moins un niveau"),
    (["watch", "127.0.0.1:7452", "--name", "x" * 99], "en",
     "chkobba watch: --name must be 1 to "),
    (["watch", "127.0.0.1:7452", "--name", "x" * 99], "fr",
     "chkobba watch: --name doit faire de 1 à "),
])
def test_offline_commands_refuse_in_the_readers_words(capsys, command, lang, line):
    assert main([*command, "--lang", lang]) == 2
    assert _err(capsys).startswith(line)


@pytest.mark.parametrize("env, argv, line", [
    ("C.UTF-8", ["plya"],
     "chkobba: error: no command 'plya'; did you mean 'play'? (see: chkobba --help)"),
    ("fr_FR.UTF-8", ["plya"], "chkobba: erreur : pas de commande 'plya' ; vouliez-vous dire "
                              "« play » ? (voir : chkobba --help)"),
    ("C.UTF-8", ["plya", "--lang", "fr"], "chkobba: erreur : pas de commande 'plya' ; "
                                          "vouliez-vous dire « play » ? (voir : chkobba --help)"),
])
def test_a_mistyped_command_in_the_readers_words(capsys, monkeypatch, env, argv, line):
    monkeypatch.setenv("LC_ALL", env)
    assert main(argv) == 2
    assert _err(capsys) == line


@pytest.mark.parametrize("lang, line", [
    ("en", "error: this game is open in another terminal, pid {pid}"),
    ("fr", "erreur : cette partie est ouverte dans un autre terminal, pid {pid}"),
])
def test_a_seat_played_elsewhere_is_said_in_the_readers_words(tmp_path, capsys, lang, line):
    state = tmp_path / "seat.state"
    held = SeatLock(state).acquire()
    try:
        assert lock_seat(state, Translator(lang)) is None
    finally:
        held.release()
    assert _err(capsys) == line.format(pid=os.getpid())


# -- chkobba bot: its error lines in --lang (its narration of the match stays English)


@pytest.mark.parametrize("lang, line", [
    ("en", "chkobba bot: error: not a port number: 'notaport' (a port is 1 to 65535)"),
    ("fr", "chkobba bot: erreur : pas un numéro de port : 'notaport' (un port va de 1 à "
           "65535)"),
])
def test_bot_a_bad_address(capsys, lang, line):
    assert main(["bot", "127.0.0.1:notaport", "--lang", lang]) == 2
    assert _err(capsys) == line


@pytest.mark.parametrize("lang, line", [
    ("en", "chkobba bot: error: this game is open in another terminal, pid {pid}"),
    ("fr", "chkobba bot: erreur : cette partie est ouverte dans un autre terminal, pid {pid}"),
])
def test_bot_a_seat_played_elsewhere(tmp_path, capsys, monkeypatch, lang, line):
    monkeypatch.setenv("CHKOBBA_DATA_DIR", str(tmp_path / "data"))
    key = tmp_path / "bot.key"
    state = saved_game_path(load_identity(key).fingerprint, "127.0.0.1:7452")
    state.parent.mkdir(parents=True, exist_ok=True)
    held = SeatLock(state).acquire()
    try:
        assert main(["bot", "127.0.0.1:7452", "--identity", str(key), "--lang", lang]) == 2
    finally:
        held.release()
    assert _err(capsys) == line.format(pid=os.getpid())


@pytest.mark.slow  # a socket, loopback's: nobody listens on the port it connects to
@pytest.mark.parametrize("lang, line", [
    ("en", "chkobba bot: error: cannot connect to 127.0.0.1:{port}: nobody is listening "
           "there (connection refused); is the table open and the port right?"),
    ("fr", "chkobba bot: erreur : connexion impossible à 127.0.0.1:{port} : personne "
           "n'écoute à cette adresse (connexion refusée) ; la table est-elle ouverte, le "
           "port est-il le bon ?"),
])
def test_bot_nobody_listening(tmp_path, capsys, lang, line):
    import socket

    with socket.socket() as sock:  # a port that was free a moment ago: nobody there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    assert main(["bot", f"127.0.0.1:{port}", "--log", str(tmp_path / "bot.chklog"),
                 "--lang", lang]) == 2
    out, err = capsys.readouterr()
    assert err.strip() == line.format(port=port)
    assert out.startswith("result: no game: cannot connect")  # the narration: English
