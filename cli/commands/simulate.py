"""``chkobba simulate``: whole matches between bots, offline, reproducible by seed."""

from __future__ import annotations

import argparse
import sys

from chkobba_p2p.bots.levels import BotError, make_bot
from chkobba_p2p.bots.simulate import simulate
from chkobba_p2p.game.record import write_records

from ..options.rules import ruleset_from_args
from ..support.term import say_error
from ..words.i18n import (
    Translator,
    detect_lang,
    local_error_text,
    os_reason,
    ruleset_text,
)


def run(args: argparse.Namespace) -> int:
    # Our refusals in --lang (else the locale's), and the library's by their codes (a
    # level, a target: BotError, RulesetError).
    t = Translator(args.lang or detect_lang())
    ruleset = ruleset_from_args(args)
    levels = [x.strip() for x in args.bots.split(",") if x.strip()]
    if not levels:
        say_error(f"chkobba simulate: {t('cx_bots_level')}")
        return 2
    try:
        bots = [make_bot(levels[i % len(levels)], seed=args.seed * 100 + i)
                for i in range(args.players)]
    except BotError as exc:  # a level nobody defined
        say_error(f"chkobba simulate: {local_error_text(t, exc)}")
        return 2
    if args.games < 1:
        say_error(f"chkobba simulate: {t('cx_games')}")
        return 2
    records: list[dict] | None = [] if args.record else None
    try:
        summary = simulate(ruleset, bots, args.games, args.seed, records)
    except BotError as exc:  # bots that never reach the target
        say_error(f"chkobba simulate: {local_error_text(t, exc)}")
        return 1
    print(ruleset_text(t, ruleset))
    print("seats: " + ", ".join(f"{i}={b.level}" for i, b in enumerate(bots)))
    for line in summary.lines():
        print(line)
    if args.record:
        try:
            write_records(args.record, records or [])
        except OSError as exc:
            why = os_reason(t, exc)
            print(f"chkobba simulate: {t('cx_cannot_write', path=args.record, why=why)}",
                  file=sys.stderr)
            return 1
        print(f"records: {args.record}")
    return 0
