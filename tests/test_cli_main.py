"""The ``chkobba`` command line: every sub-command's help, and sub-commands imported only
when they run (a broken one breaks only itself; ``chkobba --help`` imports none)."""

from __future__ import annotations

import json
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


def test_top_help_imports_no_sub_command_and_no_dependency():
    modules = _imported_by("--help")
    ours = {m for m in modules if m.startswith(("chkobba_cli", "chkobba_p2p"))}
    assert ours == {"chkobba_cli", "chkobba_cli.main", "chkobba_p2p"}
    assert not {m for m in modules if m.split(".")[0] in HEAVY}


def test_a_sub_command_imports_its_own_module_only():
    modules = _imported_by("simulate", "--help")
    assert "chkobba_cli.simulate" in modules
    assert not {"chkobba_cli.play", "chkobba_cli.net", "chkobba_cli.replay",
                "chkobba_cli.arena", "prompt_toolkit"} & modules


def test_a_broken_command_module_breaks_only_its_own_command(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "chkobba_cli.play", None)  # as if it failed to import
    assert "host a table over TCP" in _help(capsys)
    assert "--record" in _help(capsys, "simulate")
    assert "--connect-retry" in _help(capsys, "bot")
    with pytest.raises(ImportError):
        main(["play", "--help"])
