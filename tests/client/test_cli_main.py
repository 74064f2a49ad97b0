"""The ``chkobba`` command line: every sub-command's help, and sub-commands imported only
when they run (a broken one breaks only itself; ``chkobba --help`` imports none)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from chkobba_cli.main import COMMANDS, main

# One option only each command has, to tell its own help from another's.
OWN_OPTION = {
    "play": "--seed", "host": "--headless", "join": "--connect-timeout",
    "bot": "--connect-retry", "replay": "--workers", "simulate": "--record",
    "arena": "--move-ms", "watch": "spectator", "history": "--ratings",
}
HEAVY = ("trio", "prompt_toolkit", "cryptography", "msgpack", "rbcl", "platformdirs")


def _help(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--help"])
    assert exit_.value.code == 0
    return capsys.readouterr().out


def test_top_help_lists_every_command(capsys):
    out = _help(capsys)
    assert out.startswith("usage: chkobba [-h] [--version] COMMAND ...")
    for c in COMMANDS:
        assert f"    {c.name:<10}{c.summary}" in out


@pytest.mark.parametrize("name", [c.name for c in COMMANDS])
def test_every_command_answers_help(capsys, name):
    assert set(OWN_OPTION) == {c.name for c in COMMANDS}
    out = _help(capsys, name)
    assert out.startswith(f"usage: chkobba {name} ")
    assert OWN_OPTION[name] in out



@pytest.mark.parametrize("name", [c.name for c in COMMANDS])
def test_no_help_prints_a_doubled_percent_or_an_internal_issue_number(capsys, name):
    """Issue 43: ``arena --help`` printed "95%%" (a description is not %-formatted)
    and "the expert before issue 28" (a number only the project's tracker knows)."""
    out = _help(capsys, name)
    assert "%%" not in out, out
    assert not re.search(r"\bissue \d", " ".join(out.split())), out

def _imported_by(*argv: str) -> set[str]:
    code = (
        "import contextlib, io, json, sys\n"
        "from chkobba_cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        main({list(argv)!r})\n"
        "    except SystemExit as exc:\n"
        "        assert exc.code == 0, exc.code\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    return set(json.loads(run.stdout))


@pytest.mark.slow
def test_top_help_imports_no_sub_command_and_no_dependency():
    modules = _imported_by("--help")
    ours = {m for m in modules if m.startswith(("chkobba_cli", "chkobba_p2p"))}
    assert ours == {"chkobba_cli", "chkobba_cli.main"}
    assert not {m for m in modules if m.split(".")[0] in HEAVY}
    assert not {"typing", "logging"} & modules  # most of what it cost beyond Python


#: What declaring a sub-command's arguments may import of ours: no library module.
ARGUMENTS = {"chkobba_cli", "chkobba_cli.main", "chkobba_cli.arguments", "chkobba_cli.options",
             "chkobba_cli.options.peer", "chkobba_cli.options.rules"}


@pytest.mark.slow
@pytest.mark.parametrize("name", [c.name for c in COMMANDS])
def test_a_sub_commands_help_imports_no_library_and_no_dependency(name):
    """``chkobba SUB --help`` costs no more than ``chkobba --help`` (issue 29: the peer
    stack was 14x ``python -c pass``); benchmarks/startup.py measures the time."""
    modules = _imported_by(name, "--help")
    assert {m for m in modules if m.startswith(("chkobba_cli", "chkobba_p2p"))} == ARGUMENTS
    assert not {m for m in modules if m.split(".")[0] in HEAVY}
    assert not {"typing", "logging"} & modules


@pytest.mark.slow
def test_a_usage_error_imports_no_library():
    code = ("import sys\nfrom chkobba_cli.main import main\n"
            "try:\n    main(['bot', 'h:1', '--no-such-option'])\nexcept SystemExit as exc:\n"
            "    assert exc.code == 2, exc.code\n"
            "print(sorted(m for m in sys.modules if m.startswith('chkobba')))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    assert "--no-such-option" in run.stderr
    assert eval(run.stdout) == sorted(ARGUMENTS)


def test_the_help_s_copies_of_the_library_s_names_and_bounds_are_exact():
    """The options are declared from copies (so that no library module is imported for
    them): each equals the library's, in its order."""
    from chkobba_cli import arguments
    from chkobba_cli.options import peer as options
    from chkobba_cli.options import rules as rules_options
    from chkobba_cli.words import i18n
    from chkobba_p2p._shell import peer
    from chkobba_p2p.bots import levels
    from chkobba_p2p.game import rules
    from chkobba_p2p.game.cards import FigureConvention
    from chkobba_p2p.observe import audit

    assert tuple(levels.LEVELS) == options.LEVELS
    from chkobba_p2p.bots.arena import ARENA_LEVELS
    assert ARENA_LEVELS == options.ARENA_LEVELS
    assert tuple(f.value for f in FigureConvention) == options.FIGURES
    assert tuple(i18n.LANGS) == options.LANGS
    assert (options.DEFAULT_PORT, options.MAX_LIMIT, options.MAX_SPECTATORS) == \
        (peer.DEFAULT_PORT, peer.MAX_LIMIT, peer.MAX_SPECTATORS)
    from chkobba_p2p.observe.review import DEFAULT_SAMPLES

    assert options.REVIEW_SAMPLES == DEFAULT_SAMPLES
    from chkobba_p2p.game.seating import ONLINE

    assert options.TABLE_SHAPES == ONLINE
    assert tuple(rules.PRESETS) == rules_options.PRESETS
    assert tuple(rules.VARIANTS) == rules_options.VARIANTS
    assert (arguments.EXIT_VALID, arguments.EXIT_INVALID, arguments.EXIT_USAGE,
            arguments.EXIT_INCOMPLETE, arguments.EXIT_UNSUPPORTED) == (
        audit.EXIT_VALID, audit.EXIT_INVALID, audit.EXIT_USAGE, audit.EXIT_INCOMPLETE,
        audit.EXIT_UNSUPPORTED)


def test_every_command_runs_a_function_of_its_module():
    import importlib

    for c in COMMANDS:
        assert callable(getattr(importlib.import_module(c.module), c.run)), c


#: A headless bot peer's modules: ``chkobba bot`` and the bot processes ``chkobba play``
#: starts (:mod:`chkobba_cli.support.botproc`, which imports the peer stack when it runs:
#: here up to the point where it reads the table's address, none on its stdin).
BOT_PEERS = {
    "chkobba_cli.commands.bot": "import chkobba_cli.commands.bot",
    "chkobba_cli.support.botproc":
        "import chkobba_cli.support.botproc as b\nassert b.main(['-']) == 0",
}
TERMINAL_UI = ("prompt_toolkit", "pyte", "wcwidth", "curses", "asyncio")


@pytest.mark.slow
@pytest.mark.parametrize("module", list(BOT_PEERS))
def test_a_headless_bot_peer_imports_no_terminal_ui(module):
    """A bot peer holds the peer stack, not the screen's (issue 29): neither
    prompt_toolkit (nor asyncio, which only the screen's event loop needs) nor any screen
    module of ours (nothing of chkobba_cli.tui)."""
    code = f"import json, sys\n{BOT_PEERS[module]}\nprint(json.dumps(sorted(sys.modules)))\n"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, timeout=60)
    assert run.returncode == 0, run.stderr
    modules = set(json.loads(run.stdout))
    assert not {m for m in modules if m.split(".")[0] in TERMINAL_UI}
    assert not {m for m in modules if m.startswith("chkobba_cli.tui")}
    assert "chkobba_p2p._shell.peer" in modules  # it is a peer: the test imports what it claims


def test_a_broken_command_module_breaks_only_its_own_command(monkeypatch, capsys):
    # as if it failed to import
    monkeypatch.setitem(sys.modules, "chkobba_cli.commands.host", None)
    assert "host a table over TCP" in _help(capsys)
    assert "--port" in _help(capsys, "host")  # its help needs no module of its own
    assert "--record" in _help(capsys, "simulate")
    assert "--connect-retry" in _help(capsys, "bot")
    assert "--seed" in _help(capsys, "play")  # its help needs no module of its own
    with pytest.raises(ImportError):
        main(["host", "--name", "x"])


@pytest.mark.slow
def test_play_starts_its_bots_before_it_imports_the_peer_stack():
    """``chkobba play`` starts its bot processes first (they import the peer stack while
    the client imports its own): what runs before them imports no library module."""
    code = ("import json, sys\nimport chkobba_cli.commands.play, chkobba_cli.support.botproc\n"
            "print(json.dumps(sorted(sys.modules)))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    modules = set(json.loads(run.stdout))
    assert not {m for m in modules if m.startswith("chkobba_p2p")}
    assert not {m for m in modules if m.split(".")[0] in HEAVY}


@pytest.mark.slow
def test_an_early_bot_never_told_an_address_ends():
    """A client that gives up before its table listens leaves no bot behind."""
    from chkobba_cli.support.botproc import EarlyBots

    bots = EarlyBots(2, "greedy", None)
    bots.close()
    assert [p.wait(timeout=60) for p in bots.procs] == [0, 0]


@pytest.mark.parametrize("argv, said", [
    (["plya"], "chkobba: error: no command 'plya'; did you mean 'play'? (see: chkobba --help)"),
    (["hots", "--port", "7777"], "no command 'hots'; did you mean 'host'?"),
    (["xyzzy"], "no command 'xyzzy' (see: chkobba --help)")])
def test_a_mistyped_command_is_one_line_with_the_command_meant(capsys, argv, said):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1 and "usage:" not in err


@pytest.mark.parametrize("name", ["play", "host", "join"])
def test_the_table_commands_help_says_how_to_play(capsys, monkeypatch, name):
    """A first-time player read play --help and found no word on playing a card; every
    line of a sub-command's help fits 80 columns (descriptions were one long line)."""
    monkeypatch.setenv("COLUMNS", "80")
    out = _help(capsys, name)
    assert "at the table:" in out
    assert "play that card of your hand" in out and "? or F1" in out
    assert all(len(line) <= 80 for line in out.splitlines()), \
        [line for line in out.splitlines() if len(line) > 80]
    if name == "play":
        assert "(default greedy;" in out  # --bots says its default


def test_an_error_line_wraps_between_words(capsys, monkeypatch):
    """An error longer than the terminal was left for the terminal to wrap, which cut a
    word or left ")" alone on a line; French never starts a line with its colon."""
    from chkobba_cli.words.ending import print_error

    monkeypatch.setenv("COLUMNS", "80")
    print_error("Could not join 127.0.0.1:1: nobody is listening there (connection "
                "refused); is the table open and the port right?")
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and all(len(x) < 80 for x in lines), lines
    assert lines[0].startswith("error: ") and not lines[1].startswith(")")
    print_error("Impossible de rejoindre 127.0.0.1:1 : personne n'écoute à cette adresse "
                "(connexion refusée) ; la table est-elle ouverte, le port est-il le bon ?")
    lines = capsys.readouterr().err.splitlines()
    assert all(not x.startswith((":", ";", "?")) for x in lines), lines
    assert "\u00a0" not in "".join(lines)
    for width in range(40, 81):  # whatever the width, no mark begins a line
        monkeypatch.setenv("COLUMNS", str(width))
        print_error("Impossible de rejoindre 127.0.0.1:1 : personne n'écoute à cette "
                    "adresse (connexion refusée) ; la table est-elle ouverte ?")
        lines = capsys.readouterr().err.splitlines()
        assert all(not x.startswith((":", ";", "?")) for x in lines), (width, lines)


def test_options_that_look_alike_say_what_they_mean(capsys):
    """Issue 43, item 10: ``play --bots expert`` is a level while ``host --bots N`` is a
    number of seats; ``join`` and ``bot`` offer the clocks' options, which the host's
    values override at its table.  Each help says so."""
    def option(name: str, flag: str) -> str:
        out = _help(capsys, name)
        at = out.index(f"\n  {flag} ")
        end = re.search(r"\n  -", out[at + 3:])
        return " ".join(out[at:at + 3 + end.start() if end else None].split())

    play, host = option("play", "--bots"), option("host", "--bots")
    assert "the bots' level, not a number" in play, play
    assert "--bots N is a number of seats" in play, play
    assert "how many seats local bots take, a number" in host, host
    assert "'chkobba play --bots' names a level" in host, host
    for name in ("join", "bot"):
        for flag in ("--turn-timeout", "--reconnect-timeout"):
            said = option(name, flag)
            assert "At a host's table the host's value applies" in said, (name, said)
    # The host's own are the table's: no such words there.
    assert "the host's value applies" not in option("host", "--turn-timeout")


def test_host_allow_and_ready_wait_are_read_and_checked(capsys):
    """Issue 42 item 5: ``--allow FINGERPRINT`` (repeatable, any case, dashes or not)
    names the only keys that may sit; ``--ready-wait 0`` lifts the ready check's time;
    ``--allow`` with local ``--bots`` (keys unknown beforehand) is refused in one line."""
    import argparse

    from chkobba_cli.commands.bot import host_args_error
    from chkobba_cli.main import build_parser

    parser = build_parser("host")
    args = parser.parse_args(["host", "--allow", "2935C4F7816CA26C",
                              "--allow", "aaaa-bbbb-cccc-dddd", "--ready-wait", "0"])
    assert args.allow == ["2935-c4f7-816c-a26c", "aaaa-bbbb-cccc-dddd"]
    assert args.ready_wait is None
    assert parser.parse_args(["host"]).ready_wait == 60.0
    assert parser.parse_args(["host"]).allow is None
    for bad in (["--allow", "2935-c4f7"], ["--ready-wait", "-1"], ["--ready-wait", "nan"]):
        with pytest.raises(SystemExit):
            parser.parse_args(["host", *bad])
    capsys.readouterr()
    both = argparse.Namespace(**{**vars(parser.parse_args(
        ["host", "--port", "0", "--allow", "2935c4f7816ca26c", "--bots", "1"]))})
    assert "--bots" in (host_args_error(both) or "")


def test_the_headless_host_says_who_the_ready_check_freed_even_when_quiet(capsys):
    from chkobba_cli.outputs.headless import Narrator
    from chkobba_p2p import ReadyLapsed

    Narrator(quiet=True).on_event(ReadyLapsed(1, "mallory", 60))
    assert capsys.readouterr().out == \
        "mallory did not confirm within 60 s: the seat is free again\n"
