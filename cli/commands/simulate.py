"""``chkobba simulate``: whole matches between bots, offline, reproducible by seed."""

from __future__ import annotations

import argparse
import sys

from chkobba_p2p.bots.levels import BotError, make_bot
from chkobba_p2p.bots.simulate import SimulationSummary, simulate
from chkobba_p2p.game.record import write_records
from chkobba_p2p.game.seating import Seating

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
    print(t("sm_seats", seats=", ".join(f"{i}={b.level}" for i, b in enumerate(bots))))
    for line in summary_lines(t, summary):
        print(line)
    if args.record:
        try:
            write_records(args.record, records or [])
        except OSError as exc:
            why = os_reason(t, exc)
            print(f"chkobba simulate: {t('cx_cannot_write', path=args.record, why=why)}",
                  file=sys.stderr)
            return 1
        print(t("sm_records", path=args.record))
    return 0


def summary_lines(t: Translator, summary: SimulationSummary) -> list[str]:
    """The matches :func:`simulate` played (the library's data) in ``t``'s words: per
    side (a seat, or a team at 4 players) the matches won and the mean points per hand."""
    side = "team" if Seating.of(summary.players).teams else "seat"
    hands = max(summary.hands, 1)
    out = [t("sm_matches", n=summary.matches), t("sm_hands", n=summary.hands),
           t("sm_redeals", n=summary.redeals)]
    out += [t(f"sm_wins_{side}", side=i, n=n) for i, n in enumerate(summary.wins)]
    out += [t(f"sm_points_{side}", side=i, mean=t.number(p / hands, 3))
            for i, p in enumerate(summary.points)]
    out.append(t("sm_chkobbas", mean=t.number(summary.chkobbas / hands, 3)))
    return out
