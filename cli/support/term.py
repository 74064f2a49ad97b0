"""What the user's terminal can show (symbols or pure ASCII, lines fitted to its width),
and stderr held while a full screen is up (:func:`stderr_held`)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sys
import tempfile
import unicodedata
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TextIO

from chkobba_p2p.text import safe_text

__all__ = ["NBSP", "SYMBOLS", "asciify", "can_show_symbols", "fit_text", "keys_held",
           "locale_name", "path_lines", "safe_lines", "say_error", "terminal_lines",
           "terminal_width", "stderr_held"]

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


# ------------------------------------------------------------ text fitted to a terminal

#: Words that never start a line: French puts a space before these marks ("Règles :",
#: "14 %"), and a line that starts with ":" reads as broken.
_CLOSING = frozenset(":;!?»%")
#: Units that never leave their number ("60 s", "0,94 point").
_UNITS = frozenset({"s", "ms", "min", "h", "%", "point", "points", "pt", "pts"})
#: A space that never breaks a line: a caller glues a name to its key fingerprint with
#: it ("amel (2935-c4f7-…)"); printed as a plain space.
NBSP = "\xa0"


def path_lines(path: Path | str, room: int, home: Path | None = None) -> list[str]:
    """``path`` whole, for a person to copy (a path left out in its middle cannot be):
    the home folder as ``~`` (a shell reads it back), on one line of ``room`` columns
    when it fits, else broken after a ``/`` only, each line as full as it can be (a
    folder's name longer than a line, alone, is broken where the line ends)."""
    home = Path.home() if home is None else home
    text = str(path)
    with contextlib.suppress(ValueError):
        text = "~/" + str(Path(path).relative_to(home))
    return _broken_after_slashes(text, room)


def _broken_after_slashes(text: str, room: int) -> list[str]:
    """``text`` in lines of ``room`` columns, broken after a "/" only where it can be."""
    room = max(8, room)
    out: list[str] = []
    cur = ""
    for part in re.split(r"(?<=/)", text):
        if cur and len(cur) + len(part) > room:
            out.append(cur)
            cur = ""
        cur += part
        while len(cur) > room:
            out.append(cur[:room])
            cur = cur[room:]
    if cur:
        out.append(cur)
    return out


def _words(body: str) -> list[tuple[str, str]]:
    """``body`` as (word, the spaces after it), the spaces that must not break a line
    kept inside a word: before a closing mark, after an opening «, between a number and
    its unit."""
    parts = re.split(r"( +)", body)
    out: list[tuple[str, str]] = []
    for i in range(0, len(parts), 2):
        word, space = parts[i], parts[i + 1] if i + 1 < len(parts) else ""
        if out and word and (set(word) <= _CLOSING or out[-1][0].endswith("«") or (
                word.rstrip(":;,.!?)") in _UNITS and out[-1][0][-1:].isdigit())):
            prev, gap = out[-1]
            out[-1] = (prev + gap.replace(" ", NBSP) + word, space)
        else:
            out.append((word, space))
    return out


def fit_text(text: str, width: int, more: str = "  ") -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken at spaces (a terminal
    breaks a long line wherever its edge falls, inside a word or a number: "0." then
    "65 points"); each line's continuations indented ``more`` past its own indent, the
    runs of spaces that line columns up kept where the line fits.  A word longer than a
    line (a path, an address) is broken after a ``/`` where it has one, else where the
    line ends: whole, never shortened.  ``NBSP`` glues words (printed as a space)."""
    width = max(20, width)
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line.replace(NBSP, " "))
            continue
        body = line.lstrip(" ")
        lead = line[:len(line) - len(body)]
        rest = lead + more if len(lead + more) < width // 2 else lead
        cur, fresh = lead, True
        for word, space in _words(body):
            if not word:
                continue
            if len(word) > width - len(rest):  # longer than any line: broken from here
                while len(cur) + len(word) > width:
                    cut = word.rfind("/", 0, width - len(cur)) + 1  # after a "/"
                    if cut <= 0 and not fresh:
                        out.append(cur.rstrip(" "))
                        cur, fresh = rest, True
                        continue
                    cut = cut if cut > 0 else width - len(cur)  # no "/": the line's end
                    out.append(cur + word[:cut])
                    cur, fresh, word = rest, True, word[cut:]
            elif not fresh and len(cur) + len(word) > width:
                out.append(cur.rstrip(" "))
                cur = rest
            cur += word + space
            fresh = False
        out.append(cur.rstrip(" "))
    return [x.replace(NBSP, " ") for x in out]


def terminal_width() -> int:
    """The columns a line may use on the terminal: one less than its width, so that a
    full line never makes the terminal wrap before the newline."""
    return max(20, shutil.get_terminal_size((80, 24)).columns - 1)


def safe_lines(text: str, stream: TextIO | None = None) -> list[str]:
    """:func:`terminal_lines` of ``text`` as it may be written to a terminal
    (:func:`chkobba_p2p.text.safe_text`: a log's names and reasons are shown, never
    obeyed), the ``NBSP`` glue kept through the filter (it turns blank characters,
    that one too, into plain spaces)."""
    return terminal_lines(NBSP.join(safe_text(p) for p in text.split(NBSP)), stream)


def terminal_lines(text: str, stream: TextIO | None = None) -> list[str]:
    """``text`` as printed on ``stream`` (stdout by default): fitted to the terminal's
    width (:func:`fit_text`) when it is one; as is into a file or a pipe (one line per
    line, for grep)."""
    stream = sys.stdout if stream is None else stream
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not tty:
        return text.replace(NBSP, " ").split("\n")
    return fit_text(text, terminal_width())


def say_error(text: str) -> None:
    """A command's error (``chkobba join: error: ...``, already in the reader's
    language) on stderr: fitted to the terminal between words when stderr is one (the
    terminal cut "(16 hex digits" as "(1" then "6 hex digits", "hôte" as "hôt" then
    "e"), one line into a file or a pipe."""
    for line in terminal_lines(text, sys.stderr):
        print(line, file=sys.stderr)


@contextlib.contextmanager
def stderr_held() -> Iterator[None]:
    """While a full screen is up: whatever reaches file descriptor 2 would scribble over it:
    it is held back and shown once the screen is closed.  Not for our library, which
    never prints (what a person should see comes as an event, a ``Notice`` among them,
    and is shown in the events pane), but for what the client does not control: C
    libraries writing to fd 2 themselves (miniupnpc, libc), third-party Python
    libraries' warnings and log records (zeroconf logs through :mod:`logging`), Python's
    own messages (an exception in a thread, an unraisable exception), and the log
    records :func:`chkobba_cli.main.main` sends to stderr (developers' diagnostics, the
    library's among them: a bug caught, a message ignored)."""
    if not os.isatty(2):
        yield
        return
    with tempfile.TemporaryFile() as held:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(held.fileno(), 2)  # the file descriptor: C code writes there too
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            held.seek(0)
            text = held.read(1 << 16).decode("utf-8", "replace")
            if text:
                sys.stderr.write(text)
                sys.stderr.flush()
