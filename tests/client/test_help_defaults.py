"""walk6: `chkobba bot --help` did not say `--level`'s default. Every command's
option that has a default (a value, not a flag) says it in its help."""

from __future__ import annotations

import argparse

import pytest

from chkobba_cli.main import COMMANDS, build_parser


def _command_parser(name: str) -> argparse.ArgumentParser:
    parser = build_parser(name)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]


@pytest.mark.parametrize("name", [c.name for c in COMMANDS])
def test_every_option_with_a_default_says_it(name):
    p = _command_parser(name)
    silent = []
    for a in p._actions:
        if not a.option_strings or a.help == argparse.SUPPRESS or a.nargs == 0:
            continue  # positional, hidden, or a flag (store_true, --help, --version...)
        if a.default in (None, argparse.SUPPRESS):
            continue
        if "default" not in p._get_formatter()._expand_help(a):
            silent.append((a.option_strings, a.default))
    assert silent == []


def test_the_bots_level_says_greedy(capsys):
    with pytest.raises(SystemExit):
        build_parser("bot").parse_args(["bot", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "how the bot plays (default: greedy)" in help_text
