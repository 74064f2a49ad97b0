"""``chkobba play``'s first steps, before the client imports the peer stack and the screen.

The bot peers are separate processes that each import the whole peer stack: started
first, they import while the client imports its own (two cores work at once instead of
one after the other), then wait for the table's address (:class:`..support.botproc.EarlyBots`).
This module imports only the standard library and that launcher; the match itself
(:func:`cmd_play`) imports the library and the screen once the bots have started.
"""

from __future__ import annotations

import argparse
import sys

TYPE_CHECKING = False  # typing's, without importing typing (see main.py)
if TYPE_CHECKING:
    from ..support.botproc import EarlyBots

__all__ = ["play", "cmd_play"]


def play(args: argparse.Namespace) -> int:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return cmd_play(args)  # says why not, starts nothing
    from ..support.botproc import EarlyBots

    early = EarlyBots(args.players - 1, args.bots, args.seed)
    try:
        return cmd_play(args, early)
    finally:
        early.close()  # bots never told an address end


def cmd_play(args: argparse.Namespace, early: EarlyBots | None = None) -> int:
    """``chkobba play``'s match; ``early``: its bots, started before the library and the
    screen were imported (:func:`play`), else they start once the table listens."""
    from pathlib import Path

    from chkobba_p2p import HostConfig, Timeouts, default_log_path

    from ..options.rules import ruleset_from_args
    from ..support.hosting import hosting
    from ..support.player import check_tty, identity_of, name_of, screen_app
    from ..support.settings import given_name_refused
    from ..support.term import say_error
    from ..tui.guest import run_app
    from ..words.ending import EXIT_NO_GAME, finish
    from ..words.i18n import Translator, detect_lang

    t = Translator(args.lang or detect_lang())
    if (why := given_name_refused(args, t)) is not None:  # before anything is made
        say_error(f"chkobba play: {t('cx_error', why=why)}")
        return EXIT_NO_GAME
    if (err := check_tty(t)) is not None:
        say_error(t("cx_error", why=err))
        return EXIT_NO_GAME
    rules = ruleset_from_args(args)
    name = name_of(args, "you")
    log_path = Path(args.log) if args.log else default_log_path("play")
    # The player's one key, the one 'host' and 'join' use: its matches against the bots
    # are the same person's in a history and its ratings (the bot levels are their anchors).
    identity = identity_of(args, getattr(args, "identity", None))
    config = HostConfig(players=args.players, rules=rules, port=0, bind="127.0.0.1",
                        name=name, identity=identity, log_path=log_path,
                        beacon=False, timeouts=Timeouts(reconnect=10.0),
                        leave_on_cancel=True)
    ui = screen_app(args, "play", seat=0, rules=rules, players=args.players, log_path=log_path)
    result = run_app(ui, hosting(config, args.players - 1, args.bots, args.seed, early))
    return finish(result, ui)
