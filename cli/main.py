"""The ``chkobba`` command: a table of sub-commands, each imported only when it runs.

:data:`COMMANDS` names every sub-command, the module and function that run it and the
line ``chkobba --help`` shows for it, so listing the commands imports none of them: one
broken module breaks only its own command, and ``chkobba --help`` costs no more than
starting Python.  The arguments of the sub-command on the command line are declared by
:mod:`.arguments`, which imports no library module, so that ``chkobba SUB --help`` and a
usage error cost no more either; the sub-command's own module (the library, the peer
stack, the screen) is imported only when it runs, by ``func`` (called with the parsed
arguments, returns the exit status).

A new sub-command is a new row here, its arguments in :mod:`.arguments` and its function
in its module.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections import namedtuple
from collections.abc import Sequence

# typing's TYPE_CHECKING without importing typing, nor logging, nor the library: they were
# most of what ``chkobba --help`` cost beyond starting Python (benchmarks/startup.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn


class Command(namedtuple("Command", "name module run summary")):
    """A sub-command: its ``name``; the ``module`` that runs it (imported only to run it)
    and the function there, ``run`` (args -> exit status); its line in ``chkobba --help``,
    ``summary``."""

    __slots__ = ()


# In the order ``chkobba --help`` lists them.
COMMANDS: tuple[Command, ...] = (
    Command("play", "chkobba_cli.commands.play", "play",
            "play a whole match against bots, nothing to set up"),
    Command("host", "chkobba_cli.commands.host", "cmd_host",
            "host a table over TCP (others join you)"),
    Command("join", "chkobba_cli.commands.join", "cmd_join",
            "join a table (no address: pick one on the LAN)"),
    Command("bot", "chkobba_cli.commands.bot", "cmd_bot", "a headless bot peer that joins a table"),
    Command("replay", "chkobba_cli.commands.replay", "run",
            "audit a game's signed log (any peer's) and show the match"),
    Command("history", "chkobba_cli.commands.history", "run",
            "every match in your logs, audited: results, records, ratings"),
    Command("watch", "chkobba_cli.commands.watch", "run",
            "watch a table as a spectator (the host must allow spectators)"),
    Command("simulate", "chkobba_cli.commands.simulate", "run",
            "play whole matches between bots, offline"),
    Command("arena", "chkobba_cli.commands.arena", "run",
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
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND",
                                parser_class=_CommandParser)
    for c in COMMANDS:
        p = sub.add_parser(c.name, help=c.summary)
        if c.name == command:
            from .arguments import add_arguments  # the standard library only

            add_arguments(c.name, p)
            p.set_defaults(func=_Later(c.module, c.run))
    return parser


class _Version(argparse.Action):
    """``--version``: the library's version, imported only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kw: object) -> None:
        super().__init__(option_strings, dest, nargs=0,
                         help="show the program's version number and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: object, values: object,
                 option_string: str | None = None) -> None:
        from chkobba_p2p import __version__

        print(f"chkobba-p2p {__version__}")
        parser.exit()


class _Later:
    """A command's ``func``: imports its module when called (not to print its help)."""

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def __call__(self, args: argparse.Namespace) -> int:
        module = self.module
        if self.name == "cmd_host" and getattr(args, "headless", False):
            # host --headless is the headless peers' module's (which the terminal client's
            # cmd_host hands it to): straight there, without the terminal client's
            # imports, Tor and the auditor among them (issue 44: a peer's memory).
            module = "chkobba_cli.commands.bot"
        return getattr(importlib.import_module(module), self.name)(args)


def _lang_asked(argv: Sequence[str]) -> str:
    """The language of ``--lang X`` (or ``--lang=X``) on the command line, else the
    locale's: before argparse has read it (a mistyped command)."""
    from .words.i18n import detect_lang

    for i, word in enumerate(argv):
        if word == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith("--lang="):
            return word.removeprefix("--lang=")
    return detect_lang()


def _error_word(args: argparse.Namespace) -> str:
    """``error: `` in the command's ``--lang``, else the locale's language."""
    from .words.i18n import Translator, detect_lang

    return Translator(getattr(args, "lang", None) or detect_lang())("error_prefix")


def _local_words(args: argparse.Namespace, exc: BaseException) -> str:
    """A library error in the command's ``--lang`` (else the locale's): by its code
    where it has one, else its own sentence."""
    from .words.i18n import Translator, detect_lang, local_error_text

    return local_error_text(Translator(getattr(args, "lang", None) or detect_lang()), exc)


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    word = next((w for w in argv if not w.startswith("-")), None)
    if word is not None and command_in(argv) is None:
        # A typo: one line and the command meant, not argparse's usage and whole list.
        import difflib

        from .words.i18n import Translator  # in the reader's language

        t = Translator(_lang_asked(argv))
        close = difflib.get_close_matches(word, [c.name for c in COMMANDS], n=1)
        meant = t("cx_did_you_mean", name=close[0]) if close else ""
        print(f"chkobba: {t('cx_error', why=t('cx_no_command', word=repr(word), meant=meant))}",
              file=sys.stderr)
        return 2
    parser = build_parser(command_in(argv))
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    import logging

    # The command's module is imported by ``args.func``; this is the library's bare
    # errors module.
    from chkobba_p2p.errors import LocalError

    # The library never prints: what a person should see comes as events, which each
    # command words; its log records (developers' diagnostics: a bug caught, a message
    # ignored) go to stderr, one line each.
    logging.basicConfig(level=logging.WARNING, format="chkobba: %(name)s: %(message)s")

    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        from .words.i18n import Translator, detect_lang  # in the reader's language

        print(Translator(getattr(args, "lang", None) or detect_lang())("interrupted"),
              file=sys.stderr)
        return 130
    except LocalError as exc:  # the user's input (a key file, an address...): one line
        # After our words, the library's: by its code where it has one (a log, an
        # address, a port), else its sentence.
        from .support.term import say_error  # fitted to the terminal between words

        say_error(f"chkobba {args.command}: {_error_word(args)}{_local_words(args, exc)}")
        return 2
    except BaseExceptionGroup as group:  # the same, raised inside trio's nurseries
        local, _ = group.split(LocalError)
        if local is None:
            raise
        first: BaseException = local
        while isinstance(first, BaseExceptionGroup):
            first = first.exceptions[0]
        from .support.term import say_error

        say_error(f"chkobba {args.command}: {_error_word(args)}{_local_words(args, first)}")
        return 2
    except BrokenPipeError:
        return 141


if __name__ == "__main__":
    sys.exit(main())
