"""``chkobba simulate``: whole matches between bots, offline, reproducible by seed."""

from __future__ import annotations

import argparse
import sys

from chkobba_p2p.errors import ChkobbaError
from chkobba_p2p.levels import LEVELS, make_bot
from chkobba_p2p.record import write_records
from chkobba_p2p.simulate import simulate

from .rules_options import add_rules_arguments, ruleset_from_args


def add_arguments(command: str, p: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``simulate`` (see :mod:`.main`)."""
    p.description = ("Play whole matches between bots with the rules engine alone "
                     "(no network, no cryptographic deal). The same seed gives the same "
                     "matches.")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2,
                   help="players at each table (default 2; 4 play in two teams)")
    p.add_argument("--games", type=int, default=1, help="number of matches (default 1)")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the whole run: the same seed plays the same games "
                        "(default 0)")
    add_rules_arguments(p)
    p.add_argument("--bots", default="greedy,random",
                   help="comma-separated bot levels, cycled over the seats "
                   f"(levels: {', '.join(LEVELS)}; default greedy,random)")
    p.add_argument("--record", metavar="FILE", help="write the game records (JSON Lines) here")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        ruleset = ruleset_from_args(args)
        levels = [x.strip() for x in args.bots.split(",") if x.strip()]
        if not levels:
            raise ValueError("--bots needs at least one level")
        bots = [make_bot(levels[i % len(levels)], seed=args.seed * 100 + i)
                for i in range(args.players)]
    except (ValueError, ChkobbaError) as exc:  # a bad level, variant or target
        print(f"chkobba simulate: {exc}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("chkobba simulate: --games must be at least 1", file=sys.stderr)
        return 2
    records: list[dict] | None = [] if args.record else None
    try:
        summary = simulate(ruleset, bots, args.games, args.seed, records)
    except RuntimeError as exc:  # bots that never reach the target
        print(f"chkobba simulate: {exc}", file=sys.stderr)
        return 1
    print(ruleset.describe())
    print("seats: " + ", ".join(f"{i}={b.level}" for i, b in enumerate(bots)))
    for line in summary.lines():
        print(line)
    if args.record:
        try:
            write_records(args.record, records or [])
        except OSError as exc:
            print(f"chkobba simulate: cannot write {args.record}: {exc.strerror}", file=sys.stderr)
            return 1
        print(f"records: {args.record}")
    return 0
