"""``chkobba arena``: duplicate matches between two bot levels, with confidence intervals."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from chkobba_p2p.bots.arena import ARENA_LEVELS, ArenaResult, arena, ladder_lines, round_robin
from chkobba_p2p.bots.levels import BotError
from chkobba_p2p.game.rules import Ruleset

from ..options.rules import ruleset_from_args
from ..support.term import say_error
from ..words.i18n import Translator, detect_lang, local_error_text, ruleset_text


def run(args: argparse.Namespace) -> int:
    # Our refusals in --lang (else the locale's), and the library's by their codes (a
    # level, a target: BotError, RulesetError).
    t = Translator(args.lang or detect_lang())
    ruleset = ruleset_from_args(args)
    if args.games < 1:
        say_error(f"chkobba arena: {t('cx_games')}")
        return 2
    if args.move_ms is not None and not args.move_ms > 0:
        say_error(f"chkobba arena: {t('cx_move_ms')}")
        return 2

    def progress(r: ArenaResult) -> None:
        print(f"[{r.level_a}-{r.level_b} {r.matches // r.legs}/{args.games}] "
              + r.lines()[3], file=sys.stderr, flush=True)

    if args.ladder is not None:
        return _ladder(args, ruleset, progress if args.progress else None, t)
    if args.a is None or args.b is None:
        say_error(f"chkobba arena: {t('cx_levels')}")
        return 2

    try:
        result = arena(args.a, args.b, args.games, args.players, args.seed, args.move_ms,
                       ruleset, progress if args.progress else None)
    except BotError as exc:  # a level nobody defined, or bots that never win
        say_error(f"chkobba arena: {local_error_text(t, exc)}")
        return 1 if exc.code == "no_winner" else 2
    print(ruleset_text(t, ruleset))
    for line in result.lines():
        print(line)
    return 0


def _ladder(args: argparse.Namespace, ruleset: Ruleset,
            progress: Callable[[ArenaResult], None] | None, t: Translator) -> int:
    levels = [x.strip() for x in args.ladder.split(",") if x.strip()]
    unknown = [x for x in levels if x not in ARENA_LEVELS]
    if unknown or len(levels) < 2 or len(set(levels)) != len(levels):
        print(f"chkobba arena: {t('cx_ladder_levels', levels=', '.join(ARENA_LEVELS))}",
              file=sys.stderr)
        return 2
    if args.players == 3:
        say_error(f"chkobba arena: {t('cx_ladder_players')}")
        return 2
    try:
        results = round_robin(levels, args.games, args.players, args.seed, args.move_ms,
                              ruleset, progress)
    except BotError as exc:  # a level nobody defined, or bots that never win
        say_error(f"chkobba arena: {local_error_text(t, exc)}")
        return 1 if exc.code == "no_winner" else 2
    print(ruleset_text(t, ruleset))
    print(f"ladder: {', '.join(levels)}, {args.players} players, {args.games} duplicate "
          "deals per pair")
    anchor = "greedy" if "greedy" in levels else levels[0]
    for line in ladder_lines(results, anchor):
        print(line)
    return 0
