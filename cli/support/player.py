"""The player at this terminal, as ``play``, ``host`` and ``join`` set it up for the
full-screen client: the name (asked on the first run), the one key, one process per seat,
the terminal check, and the screen's application built from the options and the saved
settings (:func:`screen_app`).
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from pathlib import Path

from chkobba_p2p import (
    MAX_NAME,
    Identity,
    SeatBusy,
    SeatLock,
    data_dir,
)
from chkobba_p2p.game.cards import FigureConvention
from chkobba_p2p.text import is_invisible

from ..words.i18n import Translator, detect_lang
from .identity import own_identity
from .settings import player_name
from .term import can_show_symbols, say_error

__all__ = ["lock_seat", "screen_app", "bell_wanted", "color_wanted", "figures_wanted", "name_of",
           "check_tty", "identity_of"]


def lock_seat(state: Path, t: Translator | None = None) -> SeatLock | None:
    """One process per seat: None (after saying so, in one line, in ``t``'s language, else
    the locale's) if another process of this identity already plays here."""
    try:
        return SeatLock(state).acquire()
    except SeatBusy as exc:  # worded from its data (the pid), not its English
        t = t or Translator(detect_lang())
        who = t("cx_pid", pid=exc.pid) if exc.pid else t("cx_other_process")
        say_error(t("cx_error", why=t("cx_seat_busy", who=who)))
        return None


def _default_name(fallback: str) -> str:
    try:
        name = getpass.getuser()
    except Exception:  # no user database entry (containers)
        name = ""
    name = "".join(ch for ch in name if ch.isprintable() and not is_invisible(ch))[:MAX_NAME]
    return name or fallback


def figures_wanted(args: argparse.Namespace) -> FigureConvention | str | None:
    if args.figures == "values":
        return "values"
    return FigureConvention(args.figures) if args.figures else None


def color_wanted(args: argparse.Namespace) -> bool:
    return not (args.no_color or os.environ.get("NO_COLOR"))


def screen_app(args: argparse.Namespace, kind: str, **kw):
    from chkobba_p2p import KnownPlayers

    from ..tui.app import TuiApp

    lang = args.lang or detect_lang()
    symbols = not args.ascii and can_show_symbols()
    from ..tui.model.memo import Memo
    from ..tui.model.past import PastGames
    from . import settings

    known = KnownPlayers() if kind != "play" else None
    saved_settings = settings.load()
    bell = bell_wanted(args, saved_settings)
    four_colour = settings.four_colour_wanted(args, saved_settings)
    mouse = settings.mouse_wanted(args, saved_settings)
    # Chat and hints kept beside the saved game (a resume brings them back; a new game
    # there starts without).
    saved: Path | None = kw.pop("saved_game", None)
    memo = None
    if saved is not None:
        memo = Memo.beside(saved)
        if saved.exists():
            memo.load()
        else:
            memo.clear()
    # Records and the series, from the logs already written where this game's goes.
    log_path = kw.get("log_path")
    past = PastGames(Path(log_path).parent if log_path else data_dir() / "logs")
    return TuiApp(kind=kind, lang=lang, symbols=symbols, color=color_wanted(args),
                  figures=figures_wanted(args), pace=args.pace, known=known, past=past,
                  bell=bell, memo=memo, four_colour=four_colour, mouse=mouse, **kw)


def bell_wanted(args: argparse.Namespace, settings: dict) -> bool:
    """The turn's bell rings unless ``--no-bell`` or ``"bell": false`` in the settings."""
    return not getattr(args, "no_bell", False) and settings.get("bell") is not False


def name_of(args: argparse.Namespace, fallback: str) -> str:
    """``--name``, else the name remembered, else asked on this first run, else the
    login name (said so when the question went unanswered)."""
    t = Translator(args.lang or detect_lang())
    name = player_name(args.name, t, fallback=lambda: _default_name(fallback)) \
        or _default_name(fallback)
    return name[:MAX_NAME]


def check_tty(t: Translator | None = None) -> str | None:
    """Why the full-screen client cannot start here (no terminal), in ``t``'s language
    (else the locale's), ready to print after ``error:``; None on a terminal."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return (t or Translator(detect_lang()))("cx_needs_tty")
    return None


def identity_of(args: argparse.Namespace, path: str | None) -> Identity:
    """The key of ``--identity FILE``, else the person's one key for every role
    (cli/support/identity.py); the merge of an older version's two keys is told in one line."""
    t = Translator(args.lang or detect_lang())

    def say(key: str, old: str, new: str) -> None:
        print(t(key, old=old, new=new), file=sys.stderr)

    return own_identity(path, say)
