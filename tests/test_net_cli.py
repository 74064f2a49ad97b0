"""The command line of the network peers: one set of host options for both clients."""

from __future__ import annotations

import argparse

from cli import net as cli_net
from cli import play as cli_play


def _host_options(*modules) -> dict[str, object]:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    for m in modules:
        m.register(sub)
    host = sub.choices["host"]
    return {a.dest: a.default for a in host._actions if a.dest != "help"}


def test_host_options_are_shared_by_both_clients():
    """``chkobba host`` is registered by the terminal client when it is installed and by
    the headless peer otherwise: both take the very same protocol options (the terminal
    client adds only its display options)."""
    headless = _host_options(cli_net)
    terminal = _host_options(cli_play, cli_net)
    display = {"lang", "figures", "ascii", "no_color"}
    assert set(terminal) - display == set(headless)
    assert {k: v for k, v in terminal.items() if k not in display} == headless
    assert {"port", "bind", "players", "bots", "no_shuffle_proofs", "turn_timeout"} <= \
        set(headless)
