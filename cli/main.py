"""The ``chkobba`` command: a table of sub-commands, each imported only when it runs.

:data:`COMMANDS` names every sub-command, the module that implements it and the line
``chkobba --help`` shows for it, so listing the commands imports none of them: one
broken module breaks only its own command, and ``chkobba --help`` costs no more than
starting Python.  A sub-command's module is imported when that sub-command is on the
command line (to run it, or to print its ``--help``), and it declares its arguments
then, through ``add_arguments(name, parser)``, which also sets ``func`` (called with the
parsed arguments, returns the exit status) and any description or epilog.

A new sub-command is a new row here and an ``add_arguments`` in its module.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from typing import NamedTuple, NoReturn

from chkobba_p2p import __version__  # the bare package: a version string, no imports


class Command(NamedTuple):
    name: str
    module: str  # defines add_arguments(name, parser) for this command
    summary: str  # its line in ``chkobba --help``


# In the order ``chkobba --help`` lists them.
COMMANDS: tuple[Command, ...] = (
    Command("play", "chkobba_cli.play", "play a whole match against bots, nothing to set up"),
    Command("host", "chkobba_cli.play", "host a table over TCP (others join you)"),
    Command("join", "chkobba_cli.play", "join a table (no address: pick one on the LAN)"),
    Command("bot", "chkobba_cli.net", "a headless bot peer that joins a table"),
    Command("replay", "chkobba_cli.replay",
            "audit a game's signed log (any peer's) and show the match"),
    Command("watch", "chkobba_cli.watch",
            "watch a table as a spectator (the host must allow spectators)"),
    Command("simulate", "chkobba_cli.simulate", "play whole matches between bots, offline"),
    Command("arena", "chkobba_cli.arena",
            "measure one bot level against another (duplicate matches)"),
)


def command_in(argv: Sequence[str]) -> str | None:
    """The sub-command ``argv`` names, if any: its first word that is not an option
    (the top-level options, ``--help`` and ``--version``, take no value)."""
    for word in argv:
        if not word.startswith("-"):
            return word if any(c.name == word for c in COMMANDS) else None
    return None


class _CommandParser(argparse.ArgumentParser):
    """A command's parser: a wrong argument is one line (what is wrong, and where help
    is), exit 2; the whole usage only with --help."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see: {self.prog} --help)\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``chkobba`` parser: every sub-command listed, and the arguments of
    ``command`` (only that one's module is imported) declared."""
    parser = argparse.ArgumentParser(
        prog="chkobba",
        description=(
            "Chkobba, Tunisia's card game, peer to peer: a deal nobody controls, "
            "every move checked by every peer, a signed log anyone can replay."
        ),
    )
    parser.add_argument("--version", action="version", version=f"chkobba-p2p {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND",
                                parser_class=_CommandParser)
    for c in COMMANDS:
        p = sub.add_parser(c.name, help=c.summary)
        if c.name == command:
            importlib.import_module(c.module).add_arguments(c.name, p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(command_in(argv))
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    # The command's module has imported the library already: this costs nothing more.
    from chkobba_p2p.errors import LocalError

    # The library never prints: what a person should see comes as events, which each
    # command words; its log records (developers' diagnostics: a bug caught, a message
    # ignored) go to stderr, one line each.
    logging.basicConfig(level=logging.WARNING, format="chkobba: %(name)s: %(message)s")

    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except LocalError as exc:  # the user's input (a key file, an address...): one line
        print(f"chkobba {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BaseExceptionGroup as group:  # the same, raised inside trio's nurseries
        local, _ = group.split(LocalError)
        if local is None:
            raise
        first: BaseException = local
        while isinstance(first, BaseExceptionGroup):
            first = first.exceptions[0]
        print(f"chkobba {args.command}: error: {first}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 141


if __name__ == "__main__":
    sys.exit(main())
