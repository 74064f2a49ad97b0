"""``chkobba arena``: duplicate matches between two bot levels, with confidence intervals."""

from __future__ import annotations

import argparse
import sys

from chkobba_p2p.arena import ArenaResult, arena
from chkobba_p2p.errors import LocalError

from .rules_options import ruleset_from_args


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
