"""What the user's terminal can show: symbols or pure ASCII."""

from __future__ import annotations

import contextlib
import os
import sys
import unicodedata
from collections.abc import Iterator, Mapping
from typing import TextIO

__all__ = ["SYMBOLS", "asciify", "can_show_symbols", "locale_name", "keys_held"]

#: Every non-ASCII character the client draws (suits, boxes, arrows, marks, French).
SYMBOLS = "♠♥♦♣┌┐└┘─│▶▮→←↑↓✓⚠…·éèêàçÉÈÀÇ"


def locale_name(environ: Mapping[str, str] | None = None) -> str:
    """The locale the user's terminal runs under (``LC_ALL``, else ``LC_CTYPE``, else
    ``LANG``).  Python replaces a plain C locale by ``LC_CTYPE=C.UTF-8`` in its own
    environment (PEP 538): that one is not the terminal's, so ``LANG`` decides then."""
    env = os.environ if environ is None else environ
    if env.get("LC_ALL"):
        return env["LC_ALL"]
    ctype, lang = env.get("LC_CTYPE", ""), env.get("LANG", "")
    if ctype in ("C.UTF-8", "C.utf8") and "UTF" not in lang.upper().replace("-", ""):
        return lang  # coerced by Python from C (or nothing)
    return ctype or lang


def can_show_symbols(stream: TextIO | None = None,
                     environ: Mapping[str, str] | None = None) -> bool:
    """Whether the terminal can show the client's symbols: the locale must be a UTF-8
    one (``LANG=C``, ``POSIX`` or a Latin-1 locale cannot) and ``stream`` (default:
    stdout) must encode them.  Otherwise the client draws pure ASCII."""
    name = locale_name(environ).upper().replace("-", "")
    if "UTF8" not in name:
        return False
    stream = stream if stream is not None else sys.stdout
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        SYMBOLS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


_ASCII = str.maketrans({
    "♠": "S", "♥": "H", "♦": "D", "♣": "C", "┌": "+", "┐": "+", "└": "+", "┘": "+",
    "─": "-", "│": "|", "▶": ">", "▮": "#", "→": "->", "←": "<-", "↑": "^", "↓": "v",
    "✓": "x", "⚠": "!!", "…": "...", "·": "-", "«": '"', "»": '"', "’": "'", "×": "x",
    "\u00a0": " ", "\u202f": " ", "Œ": "OE", "œ": "oe", "Æ": "AE", "æ": "ae", "ß": "ss",
})


def asciify(text: str) -> str:
    """``text`` in pure ASCII: symbols by their letters or look-alikes (``7♦`` -> ``7D``,
    ``▶`` -> ``>``), accented letters without their accents (``é`` -> ``e``), anything
    else as ``?``."""
    if text.isascii():
        return text
    text = text.translate(_ASCII)
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).encode(
        "ascii", "replace").decode("ascii")


@contextlib.contextmanager
def keys_held(stream: TextIO | None = None) -> Iterator[None]:
    """While a long job draws its progress bar: keys typed on the terminal are not
    echoed (they garbled the bar) and are dropped at the end (they were applied, at
    once, to the screen that came next).  Nothing when ``stream`` (stdin) is no
    terminal."""
    stream = sys.stdin if stream is None else stream
    try:
        import termios

        fd = stream.fileno()
        if not os.isatty(fd):
            raise OSError
        saved = termios.tcgetattr(fd)
    except (ImportError, OSError, ValueError, AttributeError):
        yield
        return
    quiet = list(saved)
    quiet[3] &= ~termios.ECHO  # lflags
    try:
        termios.tcsetattr(fd, termios.TCSANOW, quiet)
        yield
    finally:
        with contextlib.suppress(OSError):
            termios.tcflush(fd, termios.TCIFLUSH)
            termios.tcsetattr(fd, termios.TCSANOW, saved)
