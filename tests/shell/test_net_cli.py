"""The command line of the network peers: one set of host options for both clients."""

from __future__ import annotations

import argparse

from chkobba_cli import arguments as cli_arguments
from chkobba_cli.options import peer as cli_options


def _options(parser: argparse.ArgumentParser) -> dict[str, object]:
    return {a.dest: a.default for a in parser._actions if a.dest != "help"}


def test_host_options_are_shared_by_both_clients():
    """``chkobba host`` is the terminal client's, and ``host --headless`` hands over to
    the headless peer: both take the very same protocol options (the terminal client
    adds only its display options)."""
    headless_parser = argparse.ArgumentParser()
    cli_options.add_host_options(headless_parser)
    headless = _options(headless_parser)
    terminal_parser = argparse.ArgumentParser()
    cli_arguments.add_arguments("host", terminal_parser)
    terminal = _options(terminal_parser)
    display = {"lang", "figures", "ascii", "no_color", "pace", "no_bell", "four_colour", "mouse"}
    assert set(terminal) - display == set(headless)
    assert {k: v for k, v in terminal.items() if k not in display} == headless
    assert {"port", "bind", "players", "bots", "no_shuffle_proofs", "turn_timeout"} <= \
        set(headless)
