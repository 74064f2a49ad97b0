"""Strings from the network or a file, made safe to show on a terminal, and names made
distinct.

Anything another peer or a log file says -- a display name, an abort's ``why``, a log
header, a ruleset's name, a chat line, an error message -- may hold bytes a terminal
obeys: ESC sequences (colours, cursor moves, OSC 8 links, a retitled window, OSC 52
clipboard writes), other C0 and C1 controls, bidirectional overrides that make text read
backwards (``evil\u202egnp.exe``), line breaks that forge extra output lines.
:func:`safe_text` is applied wherever such a string is *displayed* (the command line, the
terminal client, ``chkobba replay``'s text); what is stored, signed or written as JSON
stays exact.
"""

from __future__ import annotations

import bisect
import functools
import json
import unicodedata
from collections.abc import Iterable, Sequence

__all__ = ["safe_text", "distinct_names", "same_name", "skeleton", "INVISIBLE_RANGES",
           "is_invisible", "first_invisible"]

#: Line and paragraph breaks (shown as one space: a string stays on its line).
_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
#: Bidirectional formatting characters (embeddings, overrides, isolates, marks).
_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def _table() -> dict[int, str]:
    table: dict[int, str] = {}
    for code in range(0x20):
        table[code] = chr(0x2400 + code)  # control pictures: ESC shows as ␛
    table[0x7F] = "\u2421"  # ␡
    for code in range(0x80, 0xA0):
        table[code] = "\ufffd"  # C1 controls (0x9b is a one-byte CSI)
    for ch in _BREAKS:
        table[ord(ch)] = " "
    table[ord("\t")] = " "
    for ch in _BIDI:
        table[ord(ch)] = ""
    return table


_TRANSLATE = _table()
_KEEP_FORMAT = frozenset("\u200c\u200d")  # joiners: emoji sequences, Arabic/Persian script


def _rest(ch: str) -> str:
    """A character the table leaves unprintable: other format characters go (zero-width
    spaces, the byte order mark...; the joiners stay), other spaces become a space,
    anything else (private use, unassigned) the replacement character."""
    if ch.isprintable() or ch in _KEEP_FORMAT:
        return ch
    category = unicodedata.category(ch)
    if category == "Cf":
        return ""
    if category.startswith("Z"):
        return " "
    return "\ufffd"


def safe_text(text: object, limit: int | None = None) -> str:
    """``text`` as it may be written to a terminal: C0/C1 controls and DEL shown as
    visible symbols (ESC as ``␛``), line breaks and tabs as spaces, bidirectional
    controls and other invisible format characters removed; cut to ``limit`` characters
    (with ``…``) when given.  Not a str: its ``repr``."""
    if not isinstance(text, str):
        text = repr(text)
    if not text.isprintable():
        text = text.translate(_TRANSLATE)
        if not text.isprintable():
            text = "".join(_rest(ch) for ch in text)
    if limit is not None and len(text) > limit:
        text = text[:max(0, limit - 1)] + "…"
    return text


#: Code points that show nothing, as inclusive ranges: Unicode's derived property
#: Default_Ignorable_Code_Point (DerivedCoreProperties.txt, unchanged from Unicode 6.0
#: through 15.1: soft hyphen, combining grapheme joiner, the Hangul fillers, the Khmer
#: inherent vowels, the Mongolian variation selectors and vowel separator, the zero-width
#: spaces and joiners, bidirectional marks and controls, word joiner and invisible
#: operators, variation selectors, the byte order mark, the shorthand format controls,
#: the musical beam and phrase controls, tags and variation selectors supplement), then
#: the printable code points that render blank (not in that property).
INVISIBLE_RANGES: tuple[tuple[int, int], ...] = (
    # Default_Ignorable_Code_Point
    (0x00AD, 0x00AD),    # SOFT HYPHEN
    (0x034F, 0x034F),    # COMBINING GRAPHEME JOINER
    (0x061C, 0x061C),    # ARABIC LETTER MARK
    (0x115F, 0x1160),    # HANGUL CHOSEONG FILLER, HANGUL JUNGSEONG FILLER
    (0x17B4, 0x17B5),    # KHMER VOWEL INHERENT AQ, AA
    (0x180B, 0x180F),    # MONGOLIAN FREE VARIATION SELECTORS, VOWEL SEPARATOR
    (0x200B, 0x200F),    # ZERO WIDTH SPACE, ZWNJ, ZWJ, LRM, RLM
    (0x202A, 0x202E),    # bidirectional embeddings and overrides
    (0x2060, 0x206F),    # WORD JOINER, invisible operators, isolates, deprecated formats
    (0x3164, 0x3164),    # HANGUL FILLER
    (0xFE00, 0xFE0F),    # VARIATION SELECTOR-1..16
    (0xFEFF, 0xFEFF),    # ZERO WIDTH NO-BREAK SPACE (byte order mark)
    (0xFFA0, 0xFFA0),    # HALFWIDTH HANGUL FILLER
    (0xFFF0, 0xFFF8),    # reserved, default ignorable
    (0x1BCA0, 0x1BCA3),  # SHORTHAND FORMAT LETTER OVERLAP..UP STEP
    (0x1D173, 0x1D17A),  # MUSICAL SYMBOL BEGIN BEAM..END PHRASE
    (0xE0000, 0xE0FFF),  # tags, VARIATION SELECTOR-17..256, reserved
    # Printable, yet drawn as nothing
    (0x2800, 0x2800),    # BRAILLE PATTERN BLANK
    (0x16FE4, 0x16FE4),  # KHITAN SMALL SCRIPT FILLER
    (0x1D159, 0x1D159),  # MUSICAL SYMBOL NULL NOTEHEAD
)

# The ranges sorted by their first code point, looked up by bisection: a set of every
# character would hold some 4,200 strings (the tags block alone is 4,096), about 450 kB
# of every peer's memory (issue 44).
_SORTED = sorted(INVISIBLE_RANGES)
_FIRSTS = [lo for lo, _ in _SORTED]


def is_invisible(ch: str) -> bool:
    """Whether the character ``ch`` shows nothing (:data:`INVISIBLE_RANGES`)."""
    if len(ch) != 1:
        return False
    code = ord(ch)
    i = bisect.bisect_right(_FIRSTS, code) - 1
    return i >= 0 and code <= _SORTED[i][1]


def first_invisible(text: str) -> str | None:
    """The first character of ``text`` that shows nothing, None if there is none."""
    return next((ch for ch in text if is_invisible(ch)), None)


def _key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold().strip()


def same_name(a: str, b: str) -> bool:
    """Whether two display names would pass for each other (compared after Unicode
    compatibility normalization, case folded, outer spaces ignored)."""
    return _key(a) == _key(b)


def distinct_names(names: Sequence[str | None], max_len: int = 32,
                   taken: Iterable[str] = ()) -> list[str | None]:
    """``names`` with the later of any two that :func:`same_name` considers equal made
    distinct by a number: ``amel``, ``amel (2)``, ``Amel (3)``...  (also distinct from
    every name in ``taken``); every result at most ``max_len`` characters.  None (a free
    seat) stays None."""
    seen = {_key(t) for t in taken}
    out: list[str | None] = []
    for name in names:
        if name is None:
            out.append(None)
            continue
        candidate, n = name, 1
        while _key(candidate) in seen:
            n += 1
            suffix = f" ({n})"
            candidate = name[:max(1, max_len - len(suffix))].rstrip() + suffix
        seen.add(_key(candidate))
        out.append(candidate)
    return out


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype, from the Unicode confusables table
    (UTS #39 ``confusables.txt``) as the ``confusable-homoglyphs`` package ships it
    (MIT; kept current with Unicode's data by its maintainers; only its data file is
    read).  The file lists each source beside its prototype and each prototype beside
    its sources: a character with one entry is a source (its prototype is that entry)
    unless the entry is a character with one entry too, the pair then resolved the
    same way from both ends (the ASCII one, else the lower code point).  Read once, on
    the first call (about 70 ms); an install without the file gives an empty table (the
    skeleton is then NFKC and case folding only)."""
    from importlib import resources  # here: most processes never compare names

    try:
        text = (resources.files("confusable_homoglyphs") / "confusables.json").read_text(
            encoding="utf-8")
        data = json.loads(text)
    except (ModuleNotFoundError, OSError, ValueError):
        return {}
    out: dict[str, str] = {}
    for ch, entries in data.items():
        if len(ch) != 1 or not isinstance(entries, list) or len(entries) != 1:
            continue
        other = str(entries[0].get("c", "")).replace("\u200e", "").replace("\u200f", "")
        if not other or other == ch:
            continue
        back = data.get(other)
        if len(other) == 1 and isinstance(back, list) and len(back) == 1 \
                and (not other.isascii(), ord(other)) > (not ch.isascii(), ord(ch)):
            continue  # a pair: both ends map to the same one of the two
        out[ch] = other
    return out


def skeleton(name: str) -> str:
    """What a name looks like, for telling whether two names pass for each other: NFKC,
    invisible characters dropped (format characters, and every code point of
    :data:`INVISIBLE_RANGES`: ``amel\u2800`` has the skeleton of ``amel``), each
    character replaced by its Unicode confusables prototype (Cyrillic ``а`` and Latin
    ``a`` alike, ``I`` like ``l``), case folded, outer spaces trimmed, until nothing
    changes.  ``Amel``, ``amel ``, fullwidth ``ａｍｅｌ`` and ``аmel`` (Cyrillic a)
    all have the skeleton of ``amel``.  For comparing only: never shown, never stored."""
    table = _prototypes()
    text = name
    for _ in range(4):
        before = text
        text = unicodedata.normalize("NFKC", "".join(
            ch for ch in text if not is_invisible(ch)))
        text = "".join(table.get(ch, ch) for ch in text
                       if unicodedata.category(ch) != "Cf" and not is_invisible(ch))
        text = unicodedata.normalize("NFKC", text).casefold().strip()
        if text == before:
            break
    return text
