"""``chkobba arena``: duplicate matches between two bot levels, with confidence intervals."""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable

from chkobba_p2p.bots.arena import (
    ARENA_LEVELS,
    ArenaResult,
    Pairing,
    arena,
    elo_ratings,
    round_robin,
)
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
              + _win_rate(t, r), file=sys.stderr, flush=True)

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
    for line in result_lines(t, result):
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
    print(t("ar_ladder_1" if t.singular(args.games) else "ar_ladder_n",
            levels=", ".join(levels), players=args.players, games=args.games))
    anchor = "greedy" if "greedy" in levels else levels[0]
    for line in ladder_lines(t, results, anchor):
        print(line)
    return 0


def _signed(t: Translator, value: float) -> str:
    return ("+" if value >= 0 else "-") + t.number(abs(value), 3)


def _win_rate(t: Translator, r: ArenaResult) -> str:
    low, high = r.win_interval
    return t("ar_win_rate", rate=t.number(r.win_rate, 3), low=t.number(low, 3),
             high=t.number(high, 3))


def result_lines(t: Translator, r: ArenaResult) -> list[str]:
    """The duplicate matches between two levels (the library's data) in ``t``'s words."""
    mean, low, high = r.margin
    out = [t("ar_title", a=r.level_a, b=r.level_b, players=r.players),
           t("ar_matches_1" if t.singular(r.matches // r.legs) else "ar_matches_n",
             n=r.matches, deals=r.matches // r.legs, legs=r.legs),
           t("ar_hands", n=len(r.margins)), _win_rate(t, r),
           t("ar_margin", mean=_signed(t, mean), low=_signed(t, low), high=_signed(t, high))]
    for side, times, cpu in (("A", r.times_a, r.cpu_a), ("B", r.times_b, r.cpu_b)):
        if times:
            out.append(t("ar_move_time", side=side,
                         mean=t.number(1000 * statistics.fmean(times), 1),
                         wall=t.number(1000 * max(times), 1),
                         cpu=t.number(1000 * max(cpu), 1), n=len(times)))
    return out


def ladder_lines(t: Translator, results: list[ArenaResult], anchor: str = "greedy",
                 anchor_rating: float = 1500.0) -> list[str]:
    """The round robin's pairings and the ratings fitted to them, in ``t``'s words.  At 3
    players a match is A against two B's, so a win rate there is no head-to-head score;
    the ladder is for 2 and 4 players."""
    out = [t("ar_pair", a=r.level_a, b=r.level_b, wins=r.wins_a, n=r.matches)
           for r in results]
    pairings = [Pairing(r.level_a, r.level_b, r.wins_a, r.matches) for r in results]
    for lr in elo_ratings(pairings, anchor, anchor_rating):
        out.append(t("ar_elo", level=lr.level, rating=t.number(lr.rating, 0),
                     low=t.number(lr.low, 0), high=t.number(lr.high, 0)))
    return out
