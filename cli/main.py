"""The ``chkobba`` command: one sub-command per module of this package.

Each sub-command module exposes ``register(subparsers)`` (adds its parser and sets
``func``) and is imported lazily-cheap here; every ``func(args)`` returns the exit status.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from chkobba_p2p import __version__

# Modules that provide sub-commands, in the order help lists them.
_COMMAND_MODULES = (
    "cli.play",  # play, host, join: the terminal client
    "cli.net",  # bot, host --headless: headless peers
    "cli.replay",  # replay: audit a log
    "cli.watch",  # watch: a spectator at a table
    "cli.simulate",  # simulate, arena: bots against bots, offline
    "cli.arena",  # arena: one bot level against another, duplicate matches
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="chkobba",
        description=(
            "Chkobba, Tunisia's card game, peer to peer: a deal nobody controls, "
            "every move checked by every peer, a signed log anyone can replay."
        ),
    )
    parser.add_argument("--version", action="version", version=f"chkobba-p2p {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:  # not written yet in this checkout
                continue
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 141


if __name__ == "__main__":
    sys.exit(main())
