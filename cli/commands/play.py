"""``chkobba play``'s first steps, before the client imports the peer stack and the screen.

The bot peers are separate processes that each import the whole peer stack: started
first, they import while the client imports its own (two cores work at once instead of
one after the other), then wait for the table's address (:class:`.tui.botproc.EarlyBots`).
This module imports only the standard library and that launcher.
"""

from __future__ import annotations

import argparse
import sys

__all__ = ["play"]


def play(args: argparse.Namespace) -> int:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        from .table import cmd_play  # says why not, starts nothing

        return cmd_play(args)
    from ..tui.botproc import EarlyBots

    early = EarlyBots(args.players - 1, args.bots, args.seed)
    try:
        from .table import cmd_play

        return cmd_play(args, early)
    finally:
        early.close()  # bots never told an address end
