"""A decision the peer asks of the local seat (play a card, keep or place the cut card)
and the lines it puts under the hand: the prompt, the capture options, the refusal of an
illegal card, the hints.

The app (:mod:`..app`) holds the decision in progress and its keys (:mod:`..keys`) move
through it; what is drawn of it is a function of the view and of that state alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chkobba_p2p.errors import IllegalMove
from chkobba_p2p.game import rules as R
from chkobba_p2p.game.cards import Card

from ..model.view import TableView
from .render import Line, by_value, click_tag, wrap_line

__all__ = ["Request", "refusal", "decision_lines"]


@dataclass
class Request:
    """The question being asked: ``kind`` is ``"play"`` or ``"cut"``; ``reply`` takes the
    answer (a move, or True to keep the cut card)."""

    kind: str
    hand: R.Hand
    reply: Callable[[Any], None]


def refusal(view: TableView, hand: R.Hand, card: Card) -> tuple[str, str]:
    """The status line for a card with no legal move, said once and in the game's
    notation (the cards as on screen, ``Q♣``, never the engine's ``8C``): which rule of
    the rules engine bars it and, for a forced capture, which cards can capture."""
    t, cs = view.t, view.cs
    rule = "illegal_move"
    try:
        hand.play(hand.turn, card, ())
    except IllegalMove as exc:
        rule = exc.rule
    if rule == "forced_capture":
        takers = sorted({m.card for m in hand.legal_moves() if m.capture})
        why = t("refused_forced" if len(takers) == 1 else "refused_forced_n",
                cards=" ".join(cs.label(c) for c in by_value(takers)))
    elif rule == "capture_required":
        why = t("refused_capture")
    else:
        why = t.rule(rule)
    return ("class:error", t("refused", card=cs.label(card), rule=why))


def decision_lines(view: TableView, width: int, request: Request | None, *,
                   options: list[R.Move] | None = None, opt_sel: int = 0, cut_sel: int = 0,
                   status: tuple[str, str] | None = None, hints: bool = False,
                   finished: bool = False) -> list[Line]:
    """The lines under the hand: the question asked (if any) and how to answer it, or
    whose turn it is; with ``hints``, what each card of the hand would take."""
    st, t, cs = view.state, view.t, view.cs
    req = request
    out: list[Line] = []
    if status is not None and req is not None:
        out += wrap_line([(status[0], " " + status[1])], width - 1, "   ")
    if req is not None and req.kind == "cut":
        drawn = st.drawn or (req.hand.hand_of(req.hand.cutter)[0])
        assert drawn is not None  # the cutter holds the card it drew
        out += wrap_line([("class:turn", " " + t("you_drew", card=cs.label(drawn)))],
                         width - 1, "   ")
        keep = (("class:option.selected" if cut_sel == 0 else "") + click_tag("cut", 0),
                f" {t('keep')} ")
        place = (("class:option.selected" if cut_sel == 1 else "") + click_tag("cut", 1),
                 f" {t('place')} ")
        out.append([("", "   "), keep, ("", "   "), place])
        out += wrap_line([("class:dim", "   " + t("cut_why"))], width - 1, "   ")
        return out
    if req is not None and req.kind == "play":
        if options is not None:
            card = options[0].card
            out += wrap_line([("class:turn", " " + t("choose_capture", card=cs.label(card),
                                                     n=len(options)))],
                             width - 1, "   ")
            for i, m in enumerate(options):
                style = ("class:option.selected" if i == opt_sel else "") + \
                    click_tag("option", i)
                take = t("take_option", cards=" + ".join(cs.label(c) for c in by_value(m.capture)))
                out.append([("", "   "),
                            (style, f"{'▶' if i == opt_sel else ' '} {i + 1}) " + take)])
            return out
        n = len(st.hand)
        out.append([("class:turn", " " + (t("your_turn_1") if n == 1
                                          else t("your_turn", n=n)))])
        if hints:
            out += _hint_lines(view, req.hand)
        return out
    if hints and st.hand and not finished:
        # Hints also while waiting: what each card would take from the table now.
        out += _static_hints(view)
    if st.turn is not None and st.turn != st.seat and not finished:
        out.append([("class:dim", " " + t("waiting_for", name=view.who(st.turn)))])
    return out


def _hint_lines(view: TableView, hand: R.Hand) -> list[Line]:
    t, cs = view.t, view.cs
    legal = {m.card for m in hand.legal_moves()}
    out: list[Line] = []
    for i, c in enumerate(view.state.hand):
        opts = hand.captures_for(c)
        if c not in legal:
            text = t("hint_barred")
        elif opts:
            text = t("hint_takes", opts=" / ".join(
                "+".join(cs.label(x) for x in by_value(o)) for o in opts))
        else:
            text = t("hint_stays")
        out.append([("class:dim", f"   {i + 1} "), (cs.style(c), cs.label(c)),
                    ("", f" → {text}")])
    return out


def _static_hints(view: TableView) -> list[Line]:
    t, cs = view.t, view.cs
    out: list[Line] = []
    for i, c in enumerate(view.state.hand):
        opts = R.capture_options(c, view.state.table)
        text = (t("hint_takes", opts=" / ".join("+".join(cs.label(x) for x in by_value(o))
                                                for o in opts))
                if opts else t("hint_stays"))
        out.append([("class:dim", f"   {i + 1} "), (cs.style(c), cs.label(c)),
                    ("class:dim", f" → {text}")])
    return out
