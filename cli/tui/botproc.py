"""A bot peer in its own process, for ``chkobba play``: joins a table over loopback.

``python -m chkobba_cli.tui.botproc HOST:PORT --level greedy --seed 7 --name bot1`` -- the same
public API any client uses (:func:`chkobba_p2p.peer.join_match`), with a seeded bot so a
test game's play style is reproducible (the deal itself never is: it is cryptographic).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import trio

from chkobba_p2p.levels import LEVELS
from chkobba_p2p.peer import BotController, Identity, JoinConfig, Timeouts, join_match
from chkobba_p2p.rating import bot_seed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="chkobba-bot-peer")
    p.add_argument("address")
    p.add_argument("--level", default="greedy", choices=sorted(LEVELS))
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--name", default="bot")
    p.add_argument("--index", type=int, default=1, help="which bot of the table (1, 2, 3): "
                   "with the level, it names the bot's well-known key")
    p.add_argument("--log", default=None)
    p.add_argument("--reconnect-timeout", type=float, default=10.0)
    args = p.parse_args(argv)
    # A bot level's well-known key (chkobba_p2p.rating.bot_seed): the logs show which
    # seats were which bots, and ratings read against them.
    identity = Identity.from_seed(bot_seed(args.level, args.index))
    config = JoinConfig(args.address, name=args.name, identity=identity,
                        log_path=Path(args.log) if args.log else None,
                        timeouts=Timeouts(reconnect=args.reconnect_timeout))
    outcome = trio.run(join_match, config, BotController(args.level, args.seed))
    return 0 if outcome.completed else 3


if __name__ == "__main__":
    sys.exit(main())
