"""Mistakes on the command line get one clear line and exit status 2, never a traceback:
a port in use, privileged or out of range, an address that is not one, a key file
others can read; ``join [::1]:PORT`` works; a join that never reached a table names no
log file.  Real processes (pexpect for the full-screen client, which needs a terminal)."""

from __future__ import annotations

import errno
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import trio
from support.net import FAST, REPO_ROOT, cli_command, cli_env, host_config

from chkobba_p2p._shell.peer import BotController, JoinConfig, host_match, join_match
from chkobba_p2p.address import DEFAULT_PORT, Address, AddressError, listen_problem, parse_port

pexpect = pytest.importorskip("pexpect")

LIMIT = 60


def _env(tmp_path: Path) -> dict[str, str]:
    env = cli_env()
    env["CHKOBBA_DATA_DIR"] = str(tmp_path / "data")
    env.update({"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color",
                "PROMPT_TOOLKIT_NO_CPR": "1"})
    return env


def _one_clear_line(text: str, *words: str) -> None:
    """One error, said once: a line (on a terminal, fitted to its width between words:
    its continuations indented, a path broken after a "/" only)."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    assert "Traceback" not in text, text
    assert lines and not lines[0].startswith(" "), text
    assert all(ln.startswith("  ") for ln in lines[1:]), text
    said = lines[0]
    for ln in lines[1:]:
        said += ("" if said.endswith("/") else " ") + ln.strip()
    for w in words:
        assert w in said, said


def _run(tmp_path: Path, *args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cli_command(*args), cwd=REPO_ROOT, env=_env(tmp_path),
                          capture_output=True, text=True, timeout=LIMIT, **kw)


def _pty(tmp_path: Path, *args: str) -> tuple[int, str]:
    """Run in a pseudo-terminal (the full-screen client's commands); exit status and
    everything it wrote."""
    child = pexpect.spawn(sys.executable, ["-m", "chkobba_cli.main", *args], cwd=str(REPO_ROOT),
                          env=_env(tmp_path), dimensions=(24, 80), encoding="utf-8",
                          codec_errors="replace")
    child.expect(pexpect.EOF, timeout=LIMIT)
    child.close()
    return child.exitstatus, child.before or ""


@pytest.fixture
def busy_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        yield s.getsockname()[1]


# ------------------------------------------------------------------ the address parser


@pytest.mark.parametrize("text, host, port", [
    ("192.168.1.20", "192.168.1.20", DEFAULT_PORT),
    ("192.168.1.20:7000", "192.168.1.20", 7000),
    ("table.local:1", "table.local", 1),
    ("[::1]:7777", "::1", 7777),
    ("[::1]", "::1", DEFAULT_PORT),
    ("::1", "::1", DEFAULT_PORT),
    ("fe80::1%eth0", "fe80::1%eth0", DEFAULT_PORT),
    ("[2001:db8::7]:65535", "2001:db8::7", 65535),
    (" localhost:8000 ", "localhost", 8000),
    (":7000", "127.0.0.1", 7000),
])
def test_addresses_people_type(text, host, port):
    a = Address.parse(text)
    assert (a.host, a.port) == (host, port)
    assert Address.parse(str(a)) == a  # str() is a form to type back


@pytest.mark.parametrize("text, why", [
    ("127.0.0.1:", "empty"),
    ("nonsense:::", "IPv6"),
    ("host:99999", "out of range"),
    ("host:0", "out of range"),
    ("host:http", "not a port"),
    ("[::1]x", "[IPv6]:PORT"),
    ("[::1", "[IPv6]:PORT"),
    ("[host]:7", "IPv6"),
    ("", "empty"),
    ("two words", "HOST:PORT"),
    ("a\x1b]0;x\x07b", "HOST:PORT"),
])
def test_what_is_not_an_address(text, why):
    with pytest.raises(AddressError, match=None) as info:
        Address.parse(text)
    assert why in str(info.value)
    assert isinstance(info.value, ValueError)


def test_ports():
    assert parse_port("0", allow_zero=True) == 0
    assert parse_port(65535) == 65535
    for bad in ("99999", "-1", "", "7e3", True):
        with pytest.raises(AddressError):
            parse_port(bad)


def test_listen_error_sentences():
    text, code, _ = listen_problem(OSError(errno.EADDRINUSE, "x"), "0.0.0.0", 7777)
    assert "already in use" in text and code == "port_in_use"
    text, code, _ = listen_problem(OSError(errno.EACCES, "x"), "0.0.0.0", 80)
    assert "privileged" in text and "--port" in text and "80" in text
    assert code == "port_privileged"
    text, code, _ = listen_problem(OSError(errno.EADDRNOTAVAIL, "x"), "::1", 7)
    assert "[::1]:7" in text and code == "no_such_address"


# -------------------------------------------------------------------------- commands


def test_host_on_a_port_in_use(tmp_path, busy_port):
    r = _run(tmp_path, "host", "--headless", "--port", str(busy_port), "--bind", "127.0.0.1",
             "--no-beacon")
    assert r.returncode == 2
    _one_clear_line(r.stderr, "already in use", str(busy_port), "--port")


def test_terminal_host_on_a_port_in_use(tmp_path, busy_port):
    status, out = _pty(tmp_path, "host", "--port", str(busy_port), "--bind", "127.0.0.1",
                       "--no-beacon")
    assert status == 2
    _one_clear_line(out, "already in use", "--port")


@pytest.mark.skipif(os.name != "posix", reason="POSIX privileged ports")
def test_host_on_a_privileged_port(tmp_path):
    """As an ordinary user would (root may listen anywhere: the test drops the capability
    to bind low ports, with util-linux's setpriv)."""
    command = cli_command("host", "--headless", "--port", "80", "--bind", "127.0.0.1",
                          "--no-beacon")
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv")
        command = ["setpriv", "--bounding-set=-net_bind_service", *command]
    r = subprocess.run(command, cwd=REPO_ROOT, env=_env(tmp_path), capture_output=True,
                       text=True, timeout=LIMIT)
    assert r.returncode == 2, r.stderr
    _one_clear_line(r.stderr, "port 80", "privileged", "--port")


@pytest.mark.parametrize("terminal", [False, True])
def test_port_out_of_range(tmp_path, terminal):
    args = ("host", "--port", "99999", "--no-beacon")
    if terminal:
        status, out = _pty(tmp_path, *args)
    else:
        r = _run(tmp_path, *args, "--headless")
        status, out = r.returncode, r.stderr
    assert status == 2
    _one_clear_line(out, "99999", "out of range")


@pytest.mark.parametrize("command", [("host", "--headless", "--no-beacon"),
                                     ("bot", "127.0.0.1:1"), ("join", "127.0.0.1:1")])
@pytest.mark.parametrize("option, value", [
    ("--turn-timeout", "inf"), ("--turn-timeout", "nan"), ("--turn-timeout", "-5"),
    ("--turn-timeout", "1e9"), ("--turn-timeout", "0"), ("--turn-timeout", "86401"),
    ("--reconnect-timeout", "inf"), ("--reconnect-timeout", "-1"),
    ("--reconnect-timeout", "1e9"), ("--reconnect-timeout", "soon"),
])
def test_time_limits_out_of_bounds_are_one_line(tmp_path, command, option, value):
    """A table's clocks reach the wire in whole seconds, 1 to 86400 for a move, 0 to
    86400 away (PROTOCOL.md 12.3): anything else stops at the command line, before any
    socket, terminal or key file (no traceback, no honest peer blamed later)."""
    r = _run(tmp_path, *command, f"{option}={value}")
    assert r.returncode == 2, r.stderr
    _one_clear_line(r.stderr, option, value)
    assert r.stdout == "" and not (tmp_path / "data").exists()


def test_time_limits_at_the_bounds_are_taken(tmp_path):
    """A day is allowed, and no time away at all (0: nobody is waited for)."""
    from chkobba_cli.main import build_parser

    args = build_parser("bot").parse_args(["bot", "h:1", "--turn-timeout", "86400",
                                           "--reconnect-timeout", "0"])
    assert (args.turn_timeout, args.reconnect_timeout) == (86400.0, 0.0)


def test_bot_with_an_empty_port(tmp_path):
    r = _run(tmp_path, "bot", "127.0.0.1:")
    assert r.returncode == 2
    _one_clear_line(r.stderr, "port after ':' is empty")
    assert r.stdout == ""


@pytest.mark.parametrize("terminal", [False, True])
def test_join_nonsense(tmp_path, terminal):
    if terminal:
        status, out = _pty(tmp_path, "join", "nonsense:::")
    else:  # no terminal: the address is still what is reported
        r = _run(tmp_path, "join", "nonsense:::")
        status, out = r.returncode, r.stderr
    assert status == 2
    _one_clear_line(out, "not an address", "nonsense:::")


def test_key_file_others_can_read(tmp_path):
    key = tmp_path / "id.key"
    key.write_bytes(os.urandom(32))
    key.chmod(0o644)
    r = _run(tmp_path, "bot", "127.0.0.1:9", "--identity", str(key))
    assert r.returncode == 2
    _one_clear_line(r.stderr, str(key), "chmod 600")


def test_terminal_host_key_file_others_can_read(tmp_path):
    key = tmp_path / "id.key"
    key.write_bytes(os.urandom(32))
    key.chmod(0o640)
    status, out = _pty(tmp_path, "host", "--port", "0", "--identity", str(key),
                       "--no-beacon")
    assert status == 2
    _one_clear_line(out, "chmod 600")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_failed_join_names_no_log(tmp_path):
    """Nothing was logged: no 'log:' line at the end, no replay command."""
    port = _closed_port()
    status, out = _pty(tmp_path, "join", f"127.0.0.1:{port}", "--connect-timeout", "3")
    assert status == 2
    assert "chkobba replay" not in out and "Traceback" not in out
    assert "log:" not in out.split("Could not join")[-1]
    r = _run(tmp_path, "bot", f"127.0.0.1:{port}")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    logs = [ln for ln in r.stdout.splitlines() if ln.startswith("log: ")]
    assert not logs  # a bot names only a log it wrote
    assert "chkobba replay" not in r.stdout


@pytest.mark.parametrize("lang, sentence", [
    ("en", "nobody is listening there (connection refused); is the table open and the "
           "port right?"),
    ("fr", "personne n'écoute à cette adresse (connexion refusée)")])
def test_a_join_to_a_closed_port_says_so_once(tmp_path, lang, sentence):
    """The address once, and a refusal said as such (it was said three times: the
    sentence, then the library's 'cannot connect to X: all attempts to connect to X
    failed' in parentheses)."""
    port = _closed_port()
    status, out = _pty(tmp_path, "join", f"127.0.0.1:{port}", "--connect-timeout", "3",
                       "--lang", lang)
    assert status == 2 and "Traceback" not in out
    # After the screen closed, in the screen's language ("erreur : " in French).
    said = " ".join(out[out.rindex("error: " if lang == "en" else "erreur : "):].split())
    assert sentence in said and said.count(f"127.0.0.1:{port}") == 1, said


def test_a_failure_to_connect_that_is_no_refusal_is_not_called_one():
    from chkobba_cli.words.event_words import explain_error
    from chkobba_cli.words.i18n import Translator

    t = Translator("en")
    assert explain_error("connect_refused", "connect_failed", {"where": "h:1", "why": "x"},
                         t) == t("err_refused_conn")
    why = "all attempts to connect to h:1 failed"
    other = explain_error("connect_failed", "connect_failed", {"where": "h:1", "why": why}, t)
    assert other == f"cannot connect to h:1: {why}"  # no route, a timeout...: its own words


def test_watch_of_a_closed_port_is_one_line_that_says_why(tmp_path):
    port = _closed_port()
    r = _run(tmp_path, "watch", f"127.0.0.1:{port}", "--text", "--name", "nour")
    assert r.returncode == 2
    _one_clear_line(r.stderr, f"cannot connect to 127.0.0.1:{port}: nobody is listening "
                    "there (connection refused)", "is the table open")


# --------------------------------------------------------------------------- IPv6


async def test_join_an_ipv6_host_in_brackets(tmp_path):
    async with trio.open_nursery() as nursery:
        config = host_config(tmp_path)
        config.bind = "::1"
        port = await nursery.start(_host, config)
        outcome = await join_match(JoinConfig(f"[::1]:{port}", name="v6", timeouts=FAST,
                                              log_path=tmp_path / "v6.chklog"),
                                   BotController("random", seed=2))
    assert outcome.completed, (outcome.error_reason, outcome.error_data)


async def _host(config, *, task_status):
    await host_match(config, BotController("random", seed=1), task_status=task_status)


def test_terminal_join_ipv6_in_brackets(tmp_path):
    """``chkobba join [::1]:PORT`` reaches a host listening on ::1 (the screen shows the
    table's lobby: the handshake went through)."""
    host = subprocess.Popen(
        cli_command("host", "--headless", "--port", "0", "--bind", "::1", "--no-beacon",
                    "--quiet", "--log", str(tmp_path / "h.chklog")),
        cwd=REPO_ROOT, env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        assert host.stdout is not None
        port = None
        for _ in range(10):
            line = host.stdout.readline()
            if "listening on port" in line:
                port = int(line.split("listening on port")[1].split(";")[0])
                break
        assert port is not None
        child = pexpect.spawn(sys.executable, ["-m", "chkobba_cli.main", "join", f"[::1]:{port}",
                                               "--name", "vsix"],
                              cwd=str(REPO_ROOT), env=_env(tmp_path), dimensions=(24, 80),
                              encoding="utf-8", codec_errors="replace")
        try:
            child.expect("vsix", timeout=LIMIT)  # seated: the lobby or table shows our name
            assert "Could not join" not in (child.before or "")
        finally:
            child.terminate(force=True)
    finally:
        host.kill()
        host.communicate()


def test_join_codes_pass_the_address_check():
    from chkobba_cli.support.reach import address_error

    assert address_error("192.168.1.20:7777#2935-c4f7-816c-a26c") is None
    assert address_error("[::1]:7777#2935c4f7816ca26c") is None
    assert "fingerprint" in (address_error("[::1]:7777#zz") or "")
    assert "empty" in (address_error("127.0.0.1:#2935-c4f7-816c-a26c") or "")
