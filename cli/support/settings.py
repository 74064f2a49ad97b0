"""The player's own settings, remembered between runs: for now the name shown at the
table, the turn's bell, the four-colour deck, the mouse (``settings.json`` in the user
configuration directory, ``$CHKOBBA_CONFIG_DIR``)."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from chkobba_p2p import MAX_NAME, check_name, config_dir
from chkobba_p2p.errors import CodedLocalError
from chkobba_p2p.text import first_invisible

from ..words.i18n import Translator, local_error_text

__all__ = ["settings_path", "load", "save", "valid_name", "name_refused", "given_name_refused",
           "player_name",
           "four_colour_wanted", "mouse_wanted"]

MAX_FILE = 1 << 16


def settings_path() -> Path:
    return config_dir() / "settings.json"


def load() -> dict:
    """The saved settings ({} when there are none or the file is unreadable)."""
    try:
        with open(settings_path(), "rb") as f:
            data = json.loads(f.read(MAX_FILE))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save(settings: dict) -> None:
    """Write the settings (owner-only file, replaced whole).  Errors are ignored: a name
    not remembered is asked again next time, nothing worse."""
    path = settings_path()
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".settings.", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(settings, f, ensure_ascii=False)
            os.replace(tmp, path)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


def valid_name(name: object) -> str | None:
    """``name`` stripped if it can be a table name (1 to 32 printable characters, none
    of them invisible: the protocol refuses those)."""
    if not isinstance(name, str):
        return None
    name = name.strip()
    return name if 0 < len(name) <= MAX_NAME and name.isprintable() \
        and first_invisible(name) is None else None


def name_refused(name: str | None, t: Translator) -> str | None:
    """Why ``name`` (a ``--name``) cannot be a seat's name, as the peers would refuse it,
    in ``t``'s language (ready to print after ``error:``); None if it can, or if none was
    given.  A command checks it first: a refused name leaves nothing behind (no log, no
    lock, no key)."""
    if name is None:
        return None
    try:
        check_name(name)
    except CodedLocalError as exc:  # the link's name_invisible or name_unusable
        return local_error_text(t, exc)
    return None


def given_name_refused(args: argparse.Namespace, t: Translator) -> str | None:
    """Why the screen's ``--name`` cannot be this seat's name (the name
    :func:`..support.player.name_of` takes from it: cut to :data:`MAX_NAME`, an empty one
    meaning the remembered name), in ``t``'s language; None if it can or none was given.
    Checked first, so that a refused name leaves nothing behind (no key, lock or log)."""
    return name_refused(args.name[:MAX_NAME] if args.name else None, t)


def player_name(given: str | None, t: Callable[..., str],
                ask: Callable[[str], str] | None = None,
                fallback: Callable[[], str] | None = None) -> str | None:
    """The name to play under: ``given`` (``--name``) wins, for this run; else the
    remembered one; else, on a terminal, the player is asked once (and it is
    remembered); else None (the caller picks a default). When the player was asked
    but gave no name (Ctrl-D, or five names refused) and ``fallback`` is given, its
    name is returned and the player told so (nothing remembered: asked again next run)."""
    if given is not None:
        return given
    settings = load()
    saved = valid_name(settings.get("name"))
    if saved is not None:
        return saved
    if ask is None:
        if not sys.stdin.isatty():
            return None
        ask = input
    for _ in range(5):
        try:
            answer = valid_name(ask(t("name_prompt")))
        except EOFError:
            print()  # off the prompt's line
            break
        except KeyboardInterrupt:
            print()  # "interrupted" on its own line, not after the question
            raise
        if answer is not None:
            save({**settings, "name": answer})
            return answer
        print(t("name_bad"))
    if fallback is None:
        return None
    name = fallback()
    print(t("name_none", name=name))
    return name


def _remembered(args: object, key: str, default: bool, saved: dict | None) -> bool:
    """A display choice ``--KEY``/``--no-KEY``: when given, used and remembered for the
    next runs (as the name is); else the remembered choice, or ``default`` (a value not
    a boolean in the file counts for nothing)."""
    if saved is None:
        saved = load()
    given = getattr(args, key, None)
    if given is None:
        value = saved.get(key)
        return value if isinstance(value, bool) else default
    if saved.get(key) is not bool(given):
        save({**saved, key: bool(given)})
    return bool(given)


def four_colour_wanted(args: object, saved: dict | None = None) -> bool:
    """A four-colour deck: ``--four-colour`` or ``--no-four-colour`` when given (and then
    remembered for the next runs, as the name is); else the remembered choice (red and
    black by default)."""
    return _remembered(args, "four_colour", False, saved)


def mouse_wanted(args: object, saved: dict | None = None) -> bool:
    """Clicks on the table's cards: on unless ``--no-mouse`` (remembered, until
    ``--mouse``), which leaves the terminal its own text selection during play too."""
    return _remembered(args, "mouse", True, saved)
