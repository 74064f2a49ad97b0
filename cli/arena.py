"""``chkobba arena``: duplicate matches between two bot levels, with confidence intervals."""

from __future__ import annotations

import argparse
import sys

from chkobba_p2p.arena import ArenaResult, arena
from chkobba_p2p.errors import LocalError
from chkobba_p2p.levels import LEVELS

from .rules_options import add_rules_arguments, ruleset_from_args


def add_arguments(command: str, p: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``arena`` (see :mod:`.main`)."""
    levels = list(LEVELS)
    p.description = ("Duplicate matches between bot levels A and B: every deal is played "
                     "twice with the seats swapped. Prints A's match win rate and the mean "
                     "point margin per hand (A minus B), each with a 95%% confidence "
                     "interval.")
    p.add_argument("--a", required=True, choices=levels, metavar="LEVEL",
                   help=f"level A ({', '.join(levels)})")
    p.add_argument("--b", required=True, choices=levels, metavar="LEVEL",
                   help="level B (same choices)")
    p.add_argument("--games", type=int, default=50,
                   help="duplicate deals; each is played twice, so 2 x N matches (default 50)")
    p.add_argument("--players", type=int, choices=(2, 4), default=2,
                   help="players at each table (default 2; 4 play in two teams)")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the whole run: the same seed plays the same games "
                        "(default 0)")
    p.add_argument("--move-ms", type=float, default=None, metavar="M",
                   help="time budget per move for the searching levels, in ms "
                   "(default: each level's own, 200 for expert)")
    p.add_argument("--progress", action="store_true",
                   help="print a running tally on stderr after every deal")
    add_rules_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        ruleset = ruleset_from_args(args)
    except ValueError as exc:
        print(f"chkobba arena: {exc}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("chkobba arena: --games must be at least 1", file=sys.stderr)
        return 2
    if args.move_ms is not None and not args.move_ms > 0:
        print("chkobba arena: --move-ms must be positive", file=sys.stderr)
        return 2

    def progress(r: ArenaResult) -> None:
        print(f"[{r.matches // 2}/{args.games}] " + r.lines()[3], file=sys.stderr, flush=True)

    try:
        result = arena(args.a, args.b, args.games, args.players, args.seed, args.move_ms,
                       ruleset, progress if args.progress else None)
    except (ValueError, LocalError) as exc:
        print(f"chkobba arena: {exc}", file=sys.stderr)
        return 2
    print(ruleset.describe())
    for line in result.lines():
        print(line)
    return 0
