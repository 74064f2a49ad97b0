"""The lobby's seats as a person checks them: each name with its fingerprint, whether
its person is ready, and what the known players say (a new name, a known one, or a known
name with another key: a loud warning)."""

from __future__ import annotations

from collections.abc import Callable

from chkobba_p2p import KnownPlayers, Recognition, TableState
from chkobba_p2p.observe.history import Record
from chkobba_p2p.text import safe_text

from ..model.past import record_text
from .render import Line, line_text, wrap_line

__all__ = ["seat_lines", "missing_names", "changed_seats"]


def changed_seats(st: TableState, known: KnownPlayers | None) -> list[int]:
    """Seats whose name we know with another key."""
    if known is None:
        return []
    out = []
    for i, name in enumerate(st.names):
        key = st.keys[i] if i < len(st.keys) else None
        if name and key is not None and i != st.seat and st.bot(i) is None \
                and known.check(name, key).status is Recognition.CHANGED:
            out.append(i)
    return out


def missing_names(st: TableState, t: Callable[..., str]) -> str:
    """Who has not confirmed yet, in words ("hana and sami")."""
    names = [st.name(i) for i in range(len(st.names))
             if i != st.seat and st.names[i] and not (i < len(st.ready) and st.ready[i])]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + f" {t('and')} " + names[-1]


def _items(info: Line, width: int, indent: str) -> list[Line]:
    """A seat's key line, its parts (each after the first starts with " · ") kept whole
    on a line where they fit: a line breaks between two parts, not inside one ("key
    ee7f-… · the greedy bot's" then "key" alone read as two keys); a part longer
    than a line wraps at its words."""
    rows: list[Line] = []
    for style, text in info:
        if rows and (not text.startswith(" · ")
                     or len(line_text(rows[-1])) + len(text) <= width):
            rows[-1] = [*rows[-1], (style, text)]
        else:
            rows.append([(style, text if not rows else indent + text[1:])])
    out: list[Line] = []
    for row in rows:
        # A part too long for its line (a record against a long name, in French) breaks
        # after its colon, the count whole under it ("vous contre Mohamed-Aziz :" then
        # "12 parties, vous 7–5"), not wherever the line ends ("…, vous" then "7–5").
        text = line_text(row)
        at = text.find(": ")
        rest = text[at + 2:] if at > 0 else ""
        if len(text) > width and len(row) == 1 and rest \
                and len(indent) + 2 + len(rest) <= width:
            out += wrap_line([(row[0][0], text[:at + 1])], width, indent)
            out.append([(row[0][0], indent + "  " + rest)])
            continue
        out += wrap_line(row, width, indent)
    return out


def _level(t: Callable[..., str], level: str) -> str:
    """A bot level in the reader's words (:meth:`~...words.i18n.Translator.level`)."""
    said = getattr(t, "level", None)
    return said(level) if said is not None else level


def seat_lines(st: TableState, t: Callable[..., str], known: KnownPlayers | None,
               width: int, ready_check: bool,
               record: Callable[[bytes], Record | None] | None = None) -> list[Line]:
    """Two lines or more per seat: number, name (and "you"), ready mark; the fingerprint
    with what the known players say, and our ``record`` against a known player (from the
    logs: "amel: 5 games, 3–2"); a warning for a changed key.  A bot level's well-known
    key is said to be that bot."""
    out: list[Line] = []
    for i, name in enumerate(st.names):
        if not name:
            out.append([("class:dim", f"  {i + 1}. {t('lobby_free')}")])
            continue
        me = i == st.seat
        line: Line = [("", f"  {i + 1}. "), ("class:me", name)]
        if me:
            line.append(("class:dim", f" ({t('lobby_you')})"))
        if ready_check:
            ok = i < len(st.ready) and st.ready[i]
            line += [("", "  "), ("class:ok" if ok else "class:dim",
                                  ("✓ " + t("lobby_ready")) if ok else t("lobby_not_ready"))]
        out.append(line)
        fp = st.fingerprints[i] if i < len(st.fingerprints) else None
        key = st.keys[i] if i < len(st.keys) else None
        info: Line = [("class:dim", "     " + t("lobby_key", fp=fp or "?"))]
        bot = st.bot(i)  # the host's voucher's level, or a well-known key's
        seen = known.check(name, key) if known is not None and key is not None and not me \
            and bot is None else None
        if bot is not None:
            info.append(("class:dim", f" · {t('lobby_bot', level=_level(t, bot))}"))
        if seen is not None:
            if seen.status is Recognition.KNOWN:
                info.append(("class:ok", f" · {t('lobby_known')}"))
            elif seen.status is Recognition.NEW:
                info.append(("class:dim", f" · {t('lobby_new')}"))
            if seen.also_known_as:
                info.append(("class:dim", " · " + t("lobby_aka",
                                                    names=", ".join(seen.also_known_as))))
        # The record is the key's (as history counts it): said for any key that has one,
        # but not beside a warning that the name now comes with another key.
        past = record(key) if record is not None and key is not None and not me \
            and (seen is None or seen.status is not Recognition.CHANGED) else None
        if past is not None:
            info.append(("class:dim", " · " + record_text(t, name, past)))
        out += _items(info, width, "       ")
        if seen is not None and seen.status is Recognition.CHANGED:
            text = t("lobby_changed", name=name, fp=seen.before) if seen.like is None \
                else t("lobby_lookalike", name=name, like=safe_text(seen.like, 32), fp=seen.before)
            out += wrap_line([("class:error", "  ⚠ " + text)], width, "     ")
    return out
