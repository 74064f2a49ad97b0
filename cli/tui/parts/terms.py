"""The terms a person agrees to before pressing Enter (issue 26): the rules (preset,
variants, target), the move clock and the allowance of time away, and how many spectators
may watch, drawn from a :class:`~..model.view.TableView` for every lobby (the host's, a
joiner's, a spectator's).  Pure: lines of styled fragments."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...words.i18n import ruleset_text
from .render import Line, wrap_line

if TYPE_CHECKING:  # a type only: view imports this module (duration_text)
    from ..model.view import TableView

__all__ = ["duration_text", "terms_lines", "fit_lobby", "spare"]


def duration_text(seconds: float, lang: str = "en") -> str:
    """A limit as people say it: ``45 s``, ``15 min``, ``2 min 30 s``, ``1 h``."""
    s = max(0, round(seconds))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    parts = []
    if h:
        parts.append(f"{h} h")
    if m:
        parts.append(f"{m} min")
    if sec or not parts:
        parts.append(f"{sec} s")
    return " ".join(parts)


def terms_lines(view: TableView, width: int) -> list[Line]:
    """The rules, the clocks and the spectators' places, as far as they are known."""
    t, st = view.t, view.state
    out: list[Line] = []
    if st.rules is not None:
        out += wrap_line([("", " " + t("lobby_rules", rules=ruleset_text(t, st.rules)))],
                         width - 1, "   ")
    if st.limits is not None:
        out += wrap_line([("", " " + t("lobby_clocks",
                                       move=duration_text(st.limits.move, t.lang),
                                       away=duration_text(st.limits.allowance, t.lang)))],
                         width - 1, "   ")
    if st.spectator_limit is not None:
        if st.spectator_limit <= 0:
            text = t("lobby_spectators_none")
        elif st.spectators:
            text = t("lobby_spectators_one" if len(st.spectators) == 1  # "regarde"
                     else "lobby_spectators_some", n=st.spectator_limit,
                     names=", ".join(st.spectators))
        else:
            text = t("lobby_spectators", n=st.spectator_limit)
        # Given up before the clocks when a lobby is short of rows (4 seats at 24).
        out += spare(wrap_line([("", " " + text)], width - 1, "   "), 3)
    return out


#: The style of the empty fragment that marks a lobby line as one to give up when the
#: lobby is taller than the screen, its rank after the dash (lowest given up first).
_SPARE = "class:spare-"


def spare(lines: list[Line], rank: int) -> list[Line]:
    """``lines`` marked as ones a lobby short of rows may leave out, all together (never
    half a sentence), those of the lowest ``rank`` first: what the events column says
    too, or what helps less than the seats, the keys and the prompt."""
    return [[(f"{_SPARE}{rank}", ""), *line] for line in lines]


def _rank(line: Line) -> int | None:
    if line and line[0][0].startswith(_SPARE) and not line[0][1]:
        return int(line[0][0][len(_SPARE):])
    return None


def fit_lobby(lines: list[Line], height: int) -> list[Line]:
    """A lobby in ``height`` lines: blank lines go first, from the top; then the lines
    marked :func:`spare`, lowest rank first; then the top lines (the bottom is what the
    person must act on: the ready prompt)."""
    if len(lines) <= height:
        return lines

    def filled(some: list[Line]) -> int:
        return sum(1 for line in some if any(text.strip() for _, text in line))

    # The spare lines that must go even with every blank line gone, lowest rank first
    # (a blank line that they free comes back).
    for rank in sorted({r for r in map(_rank, lines) if r is not None}):
        if filled(lines) <= height:
            break
        lines = [line for line in lines if _rank(line) != rank]
    excess = len(lines) - height
    kept: list[Line] = []
    for line in lines:
        if excess > 0 and not any(text.strip() for _, text in line):
            excess -= 1
            continue
        kept.append(line)
    return kept[-height:] if height > 0 else []
