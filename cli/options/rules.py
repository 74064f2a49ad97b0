"""The rules options every command that starts a match shares: --rules, --variant, --target.

Declaring them imports no library module: the preset and variant names are copies of
:data:`chkobba_p2p.game.rules.PRESETS` and ``VARIANTS`` (in their order), checked against them
by ``tests/client/test_cli_main.py``; the rules engine is imported when a ruleset is built.
"""

from __future__ import annotations

import argparse
import sys

TYPE_CHECKING = False  # typing's, without importing typing (see main.py)
if TYPE_CHECKING:
    from chkobba_p2p.game.rules import Ruleset

PRESETS: tuple[str, ...] = ("tunisian", "cardavia", "chkoum")
VARIANTS: tuple[str, ...] = (
    "cut-and-draw", "plain", "redeal-kings", "redeal-any-three", "no-redeal",
    "forced-capture", "free-capture", "primiera", "barmila", "french-figures",
    "tunisian-figures",
)


def add_rules_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", default="tunisian", choices=sorted(PRESETS),
                   help="named rules preset (default: tunisian)")
    p.add_argument("--variant", action="append", choices=sorted(VARIANTS), metavar="VARIANT",
                   help="apply a variant on top of the preset; repeatable. One of: "
                   + ", ".join(VARIANTS))
    p.add_argument("--target", type=int, default=None,
                   help="points to win the match (default: the preset's, 11 for tunisian)")


def ruleset_from_args(args: argparse.Namespace) -> Ruleset:
    """The ruleset the options name; a usage error (exit 2) if the library refuses them
    (a target out of range), said in the command's ``--lang`` (else the locale's)."""
    from chkobba_p2p.game.rules import Ruleset, RulesetError

    try:
        ruleset = Ruleset.preset(args.rules)
        for v in args.variant or ():
            ruleset = ruleset.with_variant(v)
        if args.target is not None:
            ruleset = ruleset.with_target(args.target)
    except RulesetError as exc:
        from ..words.i18n import Translator, detect_lang, local_error_text

        t = Translator(getattr(args, "lang", None) or detect_lang())
        command = getattr(args, "command", None)
        print(f"chkobba {command}: {local_error_text(t, exc)}" if command
              else f"chkobba: {local_error_text(t, exc)}", file=sys.stderr)
        raise SystemExit(2) from None
    return ruleset
