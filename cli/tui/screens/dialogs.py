"""The dialogs drawn in a frame over the screen: leave the game?, a hand's scoring, the
match's end.  Each is a list of lines from the view (and what it reports on); the app
decides which one shows (``TuiApp.overlay_kind``) and :mod:`..keys` what keys do while it
does.  A new dialog (a help screen, say) is a new function here, or a new module if it
grows, plus its kind in ``overlay_kind``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from chkobba_p2p import ErrorCode, HandScored, Outcome

from ...support.term import path_lines
from ...words.event_words import outcome_error
from ...words.i18n import Translator
from ..model.view import TableView
from ..parts.render import Line, score_lines, score_width, wrap_line
from ..parts.stopped import stop_sentences

__all__ = ["leave_lines", "away_lines", "resign_lines", "score_dialog_lines", "over_lines",
           "as_text", "path_lines", "log_lines"]


def as_text(lines: list[Line]) -> list[tuple[str, str]]:
    """Lines as one formatted text (no newline after the last: the frame fits it)."""
    out: list[tuple[str, str]] = []
    for i, line in enumerate(lines):
        out += line + ([("", "\n")] if i < len(lines) - 1 else [])
    return out


def leave_lines(t: Translator, kind: str = "play", started: bool = True) -> list[Line]:
    """Leave without a choice to make: a game against local bots (``play``: it stops
    there, its log is kept), or a lobby before the first deal (nothing played: a host
    closes its table, a joiner frees its seat)."""
    if started or kind == "play":
        title, body = "leave_title", "leave_body" if kind != "play" else "leave_body_bots"
    elif kind == "host":
        title, body = "leave_title_host_lobby", "leave_body_host_lobby"
    else:
        title, body = "leave_title_lobby", "leave_body_lobby"
    return [[("class:title", " " + t(title) + " ")], [],
            [("", " " + t(body) + " ")], [],
            [("class:keys", " " + t("leave_keys") + " ")]]


def away_lines(t: Translator, allowance: str, interrupt: bool = False) -> list[Line]:
    """At a table with people, leaving is a choice: step away (the game waits
    ``allowance``; the same command comes back) or resign (a signed loss).  Opened by
    Ctrl-C (``interrupt``), it says that Ctrl-C again steps away at once."""
    lines: list[Line] = [[("class:title", " " + t("away_title") + " ")], [],
                         [("", " " + t("away_step", t=allowance) + " ")],
                         [("class:warn", " " + t("away_resign") + " ")],
                         [("", " " + t("away_stay") + " ")]]
    if interrupt:
        lines += [[], [("class:dim", " " + t("away_twice") + " ")]]
    return lines


def resign_lines(t: Translator) -> list[Line]:
    """Resigning, asked again (x in the leave dialog, then y): a signed loss."""
    return [[("class:title", " " + t("resign_title") + " ")], [],
            [("class:warn", " " + t("resign_body") + " ")], [],
            [("class:keys", " " + t("resign_keys") + " ")]]


#: The widest a dialog's text may be on an 80-column screen (its box around it).
DIALOG_TEXT = 74


def score_continue(t: Translator, closes_in: float | None) -> str:
    """The score sheet's key line: Enter, and when it closes by itself, in how long."""
    if closes_in is None:
        return t("sc_continue")
    return t("sc_continue_in", n=max(1, math.ceil(closes_in)))


def score_dialog_lines(view: TableView, ev: HandScored,
                       closes_in: float | None = None) -> list[Line]:
    """A hand's scoring, point by point, with the match's totals; the sides by name,
    long names cut so that the table fits the box on 80 columns.  ``closes_in``: the
    seconds before it closes by itself (None: it waits for a key)."""
    t = view.t
    names: list[str] = []
    for short in (None, 12, 8, 6, 4):
        names = [view.side_name(i, short) for i in range(len(ev.totals))]
        if score_width(names) <= DIALOG_TEXT:
            break
    lines: list[Line] = [[("class:title", " " + t("score_title", n=ev.number))], []]
    lines += score_lines(ev.score, ev.totals, names, t, view.state.target,
                         view.side_order(len(names)))
    if any(won is None for won in ev.score.categories.values()):
        # "beji" is the table's word for a tie; a newcomer meets it here first.
        lines += [[], *wrap_line([("class:dim", " " + t("gl_beji"))], DIALOG_TEXT, "   ")]
    lines += [[], [("class:keys", " " + score_continue(t, closes_in) + " ")]]
    return lines


def over_lines(view: TableView, outcome: Outcome | None, log_path: Path | None,
               width: int, rematch: bool = False, records: Sequence[str] = (),
               news: Sequence[tuple[str, str]] = (), luck: bool = False) -> list[Line]:
    """The match's end: who won and by how much (or by a resignation), or why it stopped;
    where the log is and the command that audits it.  ``width`` is the screen's (long
    paths are cut); ``rematch``: the keys offer to play again; ``records``: what the
    matches so far count (:func:`..model.past.records_lines`: the line that says what is
    counted, then "sami: 4 games, 3–1" for each player of another side); ``news``: the
    others' answers to the rematch so far, (style, text); ``luck``: the ``l`` key offers
    the account of luck against play (:func:`luck_box_lines`)."""
    t, st = view.t, view.state
    o = outcome
    lines: list[Line] = []
    quitter = o.resigned if o is not None and o.resigned is not None else \
        o.left if o is not None else None
    how = "resigned" if o is not None and o.resigned is not None else "left"
    if o is not None and o.aborted is not None and o.aborted.decided is not None:
        # The result was decided; a seat stopped before signing it: it stands.
        won = o.aborted.decided
        lines += [[("class:title", " " + t("over_title") + " ")], []]
        if st.my_side is not None and won == st.my_side:
            lines.append([("class:ok", " " + t("over_decided_you_win") + " ")])
        else:
            lines.append([("class:warn", " " + t("over_decided_other",
                                                 name=view.side_name(won)) + " ")])
    elif o is not None and quitter is not None and o.winner_side is not None:
        lines += [[("class:title", " " + t("over_title") + " ")], []]
        if st.my_side is not None and o.winner_side != st.my_side and quitter != st.seat \
                and not st.teams:
            # At 3 players: another seat left, the one ahead wins.
            lines.append([("class:warn", " " + t(f"over_{how}_other_wins",
                                                 who=view.who(quitter),
                                                 name=view.side_name(o.winner_side)) + " ")])
        elif quitter == st.seat:
            text = (t(f"over_{how}_us") if st.teams else
                    t(f"over_{how}_me", name=view.side_name(o.winner_side)))
            lines.append([("class:warn", f" {text} ")])
        else:
            lines.append([("class:ok", " " + t(f"over_{how}_you_win",
                                               name=view.who(quitter)) + " ")])
    elif o is not None and o.on_time is not None and o.winner_side is not None:
        lines += [[("class:title", " " + t("over_title") + " ")], []]
        late, won = o.on_time, o.winner_side
        four = st.teams
        # Its move clock ran out (timeout), or its allowance while away (peer_left).
        how = "over_away" if o.aborted is not None \
            and o.aborted.code is ErrorCode.PEER_LEFT else "over_on_time"
        if st.my_side is not None and won == st.my_side:
            key = f"{how}_we_win" if four else f"{how}_you_win"
            lines.append([("class:ok", " " + t(key, name=view.who(late)) + " ")])
        elif st.my_side is not None and st.side(late) == st.my_side:
            text = (t("over_on_time_us") if four else
                    t(f"{how}_me", name=view.side_name(won)))
            lines.append([("class:warn", f" {text} ")])
        else:
            # A spectator, or at 3 players a seat that neither ran out of time nor won:
            # never told that it did.
            lines.append([("class:warn", " " + t("over_on_time_other", late=view.who(late),
                                                 name=view.side_name(won)) + " ")])
        by = o.aborted.by_seat if o.aborted is not None else None
        note = view.late_note(late, by)
        lines += wrap_line([("", " " + note)],
                           max(20, width - 6),
                           indent=" ")
    elif o is not None and quitter is not None:  # at 3 players, the two others level
        lines += [[("class:title", " " + t("over_title") + " ")], []]
        lines.append([("class:warn", " " + view.said(f"over_{how}_nobody", quitter)
                       + " ")])
    elif o is not None and o.done is not None:
        d = o.done
        # The winner's first, as people say it: "amel wins 14-9"; at 3 players whose the
        # others are, "amel wins 11 (you 7, bot2 3)".
        score = view.score(d.totals, d.winner_side)
        lines.append([("class:title", " " + t("over_title") + " ")])
        lines.append([])
        if st.my_side is not None and d.winner_side == st.my_side:
            lines.append([("class:ok", " " + t("over_you_win", score=score) + " ")])
        else:
            text = (t("over_they_win", score=score) if st.teams else
                    t("over_other_wins", score=score, name=view.side_name(d.winner_side)))
            lines.append([("class:warn", f" {text} ")])
        lines.append([("", " " + t("over_hands", n=d.hands))])
    else:
        lines.append([("class:error", " " + t("over_aborted") + " ")])
        lines.append([])
        if o is not None and o.aborted is not None:
            for style, text in stop_sentences(view, o.aborted):
                lines += wrap_line([(style, " " + text)], max(20, width - 6), indent=" ")
        elif o is not None and (o.error_reason or o.error_code):
            lines += wrap_line([("", " " + outcome_error(o, t, plain=False))], max(20, width - 6),
                               indent=" ")
    if records:
        lines.append([])
        lines += wrap_line([("class:dim", " " + records[0])], max(20, width - 6), "   ")
        for x in records[1:]:  # a record on a line; a longer sentence wraps
            lines += wrap_line([("class:title", f" {x} ")], max(20, width - 6), "     ")
    path = (o.log_path if o is not None else None) or log_path
    if path and Path(path).exists():  # no log without a table: nothing to replay
        width = max(20, width - 6)
        lines.append([])
        lines += log_lines(t, "over_log_title", Path(path), width)
    lines.append([])
    for style, text in news:
        lines += wrap_line([(style, " " + text)], max(20, width - 6), indent="   ")
    if luck and path and Path(path).exists():  # "is it rigged?": asked with l
        lines.append([("", " " + t("luck_key"))])
    lines.append([("class:keys", " " + t("keys_over_rematch" if rematch else "keys_over") + " ")])
    return lines


def luck_box_lines(t: Translator, lines: Sequence[str] | None, failed: bool,
                   log_path: Path | None, width: int) -> list[Line]:
    """The end screen's "is it rigged?" (``l``): the account of luck against play
    (:mod:`...luck`), its first sentence as the title, the table of card values dimmed;
    ``lines`` None: still being computed (or ``failed``, with the command that does it)."""
    room = max(20, width - 6)
    out: list[Line] = []
    if failed or lines is None:
        out.append([("class:title" if not failed else "class:warn",
                     " " + t("luck_failed" if failed else "luck_reading") + " ")])
        if failed and log_path is not None:  # the path whole, to copy (path_lines)
            shown = path_lines(Path(log_path), room - 4)
            if len(shown) == 1 and len("chkobba replay --luck " + shown[0]) <= room - 4:
                out.append([("class:ok", "   chkobba replay --luck " + shown[0])])
            else:
                out.append([("class:ok", "   chkobba replay --luck")])
                out += [[("class:ok", "     " + x + " ")]
                        for x in path_lines(Path(log_path), room - 8)]
    else:
        for i, text in enumerate(lines):
            style = "class:title" if i == 0 else "class:dim" if text.startswith("(") else ""
            out += wrap_line([(style, " " + text)], room, indent=" ")
            if i == 0:
                out.append([])
    out += [[], [("class:keys", " " + t("keys_luck") + " ")]]
    return out


def log_lines(t: Translator, title: str, path: Path, width: int) -> list[Line]:
    """Where the log is (``title``, then the path) and the command that replays it, in
    a box ``width`` wide: the path whole, to copy (it was left out in its middle at 80
    columns), on its own lines, broken after a "/" where it must be; the command with it
    on one line, else the command, then the same path under it, whole."""
    shown = path_lines(path, width - 4)
    out: list[Line] = [[("", " " + t(title))]]
    out += [[("class:title", "   " + x + " ")] for x in shown]
    out.append([("", " " + t("over_replay_title"))])
    if len(shown) == 1 and len("chkobba replay " + shown[0]) <= width - 4:
        out.append([("class:ok", "   chkobba replay " + shown[0])])
    else:
        out.append([("class:ok", "   chkobba replay")])
        out += [[("class:ok", "     " + x + " ")] for x in path_lines(path, width - 8)]
    return out


def sheet_lines(view: TableView, width: int, empty_key: str) -> list[Line]:
    """The match's score sheet so far (every scored hand's categories per side and the
    tally), under its title; ``empty_key``: the words shown before any hand is scored.
    The same sheet for a player (``s`` at the table) and a spectator."""
    from ...outputs import scoresheet

    t, st = view.t, view.state
    hands = [scoresheet.from_score(ev.number, ev.score, ev.totals) for ev in st.scored]
    out: list[Line] = [[("class:title", " " + t("sheet_title"))]]
    names = [view.side_name(i) for i in range(len(hands[0].points))] if hands else []
    for text in scoresheet.sheet_lines(hands, names, t, view.side_order(len(names))):
        out.extend(wrap_line([("", " " + text)], width - 1, "   "))
    if not hands:
        out.append([("class:dim", " " + t(empty_key))])
    return out
