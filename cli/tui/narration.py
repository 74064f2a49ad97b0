"""The events panel: what happened, one line per event (the draw for the first dealer,
the deal, the cut, every play and capture, the scoring, a peer waiting or back, chat,
the library's notices), worded from the local seat's point of view.  A new kind of event
gets its words here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from chkobba_p2p import (
    Aborted,
    Chat,
    HandScored,
    HandStarted,
    LeftLobby,
    Listening,
    Lobby,
    MatchDone,
    Notice,
    PortMapped,
    PortMapUnavailable,
    ReadyLapsed,
    RedealEvent,
    RematchAnswer,
    RematchOffered,
    Restored,
    Resumed,
    Spectators,
    TableReady,
    Waiting,
)
from chkobba_p2p.game import rules as R
from chkobba_p2p.observe.rating import bot_level
from chkobba_p2p.text import safe_text

from ..i18n import notice_text
from .lobby import reach_text
from .presence import clock_text, gone_key
from .render import Line, by_value, wrap_line
from .stopped import stop_sentences
from .view import TableView

__all__ = ["BotsStarting", "EventLog"]

KEPT = 300  # lines kept in the panel


@dataclass(frozen=True)
class BotsStarting:
    """The client starts ``n`` local bot peers (shown in the events panel)."""

    n: int


class EventLog:
    """The panel's lines, newest last; ``on_change`` is called after each new line (the
    app redraws)."""

    def __init__(self, on_change: Callable[[], None] = lambda: None, *,
                 empty_table: bool = False) -> None:
        self.lines: list[Line] = []
        self._on_change = on_change
        #: Seats known to be gone, with the wording of their absence, to note each once.
        self._gone: dict[int, str] = {}
        #: We were told we are back at the table, and have not lost it since.
        self._back = False
        #: The names in the lobby's seats as last seen (None: no lobby yet), so that a
        #: player who sits down is news ("amel takes a seat"), once.  A host opened its
        #: table empty (``empty_table``): everyone in its first lobby sat down since.
        self._seated: dict[int, str] | None = {} if empty_table else None
        #: Our own bots said as they start ("a bot takes its seat"): not again by name.
        self._bots_said = 0

    def add(self, *fragments: tuple[str, str]) -> None:
        self.lines.append(list(fragments))
        del self.lines[:-KEPT]
        self._on_change()

    def panel(self, title: str, width: int, height: int) -> list[tuple[str, str]]:
        """The panel as formatted text: its title, then the newest lines that fit."""
        lines: list[Line] = []
        for ev in self.lines:
            lines.extend(wrap_line(ev, width - 1, indent="  "))
        lines = lines[-max(1, height - 1):]
        out: list[tuple[str, str]] = [("class:panel.title", f" {title}"), ("", "\n")]
        for line in lines:
            out += [("", " ")] + line + [("", "\n")]
        return out

    def narrate(self, ev: object, view: TableView, *, own_chat: bool = False) -> None:
        """The line(s) for ``ev``; ``view`` is the table after it.  ``own_chat``: a chat
        line now is the local seat's."""
        log, t, st = self.add, view.t, view.state
        if isinstance(ev, BotsStarting):
            self._bots_said += ev.n
            log(("class:dim", t("ev_bots_1") if ev.n == 1 else t("ev_bots_n", n=ev.n)))
        elif isinstance(ev, Listening):
            log(("class:dim", t("ev_host_open")))
        elif isinstance(ev, PortMapped | PortMapUnavailable):
            log(("class:dim", reach_text(t, ev, st.my_fingerprint)))
        elif isinstance(drawn := getattr(ev, "draws", None), dict):  # the first-dealer draw
            draws = ", ".join(f"{view.who(s)} {view.label(c)}" for s, c in
                              sorted(drawn.items()))
            # Fewer cards than seats: a tie for the lowest, drawn again by the tied seats
            # (said so: two draws in a row read as a mistake).
            again = bool(st.players) and len(drawn) < (st.players or 0)
            log(("", t("ev_first_redraw" if again else "ev_first_draw", draws=draws)))
        elif isinstance(ev, HandStarted):
            log(("class:title", view.said("ev_hand", ev.dealer, n=ev.number)))
        elif isinstance(ev, RedealEvent):
            log(("class:warn", t("ev_redeal", name=view.who(ev.dealer))))
        elif isinstance(ev, R.DealEvent):
            if ev.draw:
                log(("class:dim", view.said("ev_draw", st.cutter)))
            elif all(r is not None for r in ev.recipients):
                log(("class:dim", t("ev_deal", n=st.stock)))
        elif isinstance(ev, R.CutEvent):
            if ev.keep:
                log(("", view.said("ev_keep", ev.seat)))
            else:
                assert ev.card is not None  # a placed card is shown
                log(("", view.said("ev_place", ev.seat, card=view.label(ev.card))))
        elif isinstance(ev, R.PlayEvent):
            self._play(ev, view)
        elif isinstance(ev, R.SweepEvent):
            if ev.seat is not None and ev.cards:
                log(("class:dim", view.said("ev_sweep", ev.seat, cards=view.labels(ev.cards))))
        elif isinstance(ev, HandScored):
            # Our side first, as the header and the score dialog read them.
            order = view.side_order(len(ev.score.points))
            pts = " - ".join(f"{view.side_name(i)} {ev.score.points[i]}" for i in order)
            # Three totals say whose is whose ("amel 5, bot1 3, bot2 0"); two follow the
            # points' order, which names them.
            tot = view.totals_words(ev.totals) if len(ev.totals) > 2 else \
                " - ".join(str(ev.totals[i]) for i in order)
            log(("class:title", t("ev_scored", n=ev.number, points=pts, totals=tot)))
        elif isinstance(ev, MatchDone):
            log(("class:ok", t("ev_done")))
        elif isinstance(ev, TableReady):
            if not ev.table.shuffle_proofs:
                log(("class:warn", t("ev_no_proofs")))
        elif isinstance(ev, Restored):
            # After a crash or a step-away: how the table got where it is, again.
            n = st.hand_number
            log(("class:ok", t("ev_restored", n=n) if n else t("ev_restored_lobby")))
            self._back = True  # "you are back" is said: not again for this connection
            for e in ev.hand_events:
                self.narrate(e, view)
        elif isinstance(ev, Aborted):
            # The players' words (names, a reason in their language, a claim as a
            # claim), never a protocol code or a seat number: see .stopped.
            for line in stop_sentences(view, ev):
                log(line)
        elif isinstance(ev, Waiting):
            # The countdown comes every second: the table shows it live
            # (.presence); the panel notes each drop once.
            if ev.seat == 0 and st.seat not in (None, 0):
                self._back = False  # our link to the host is down: its return is news
            if self._gone.get(ev.seat) != gone_key(ev):
                self._gone[ev.seat] = gone_key(ev)
                log(("class:warn", t(gone_key(ev), name=view.who(ev.seat),
                                     t=clock_text(ev.seconds))))
        elif isinstance(ev, Resumed):
            if ev.seat != st.seat:
                if self._gone.pop(ev.seat, None) == "ev_awaited":
                    # Waited for by a host that restarted: it was the host that was
                    # away, not this player (issue 43, item 9).
                    log(("class:ok", t("ev_back_restart_me" if st.seat == 0
                                       else "ev_back_restart", name=view.name(ev.seat),
                                       host=view.name(0))))
                    return
                log(("class:ok", view.said("ev_back", ev.seat)))
                return
            if not self._back:  # once per return, not per message
                self._back = True
                log(("class:ok", t("ev_back_me")))
            if ev.seat != 0 and self._gone.pop(0, None) is not None:
                log(("class:ok", view.said("ev_back", 0)))
        elif isinstance(ev, Lobby):
            # The seats as they fill: a new name is news (the first lobby is the table
            # as we found it, and a Lobby comes again each time someone is ready).
            seated = {i: seat[0] for i, seat in enumerate(ev.seats) if seat is not None}
            others = [i for i in sorted(seated) if i != st.seat]
            if self._seated is None and others and st.seat != 0:
                # A joiner's (or a spectator's) first look: who is there already.
                log(("", t("ev_found", names=", ".join(view.name(i) for i in others))))
            if self._seated is not None:
                for i, name in sorted(seated.items()):
                    if i == st.seat or self._seated.get(i) == name:
                        continue
                    public = ev.keys[i] if i < len(ev.keys) else None
                    if self._bots_said and public is not None and bot_level(public) is not None:
                        self._bots_said -= 1  # one of ours, said as it started
                        continue
                    log(("class:ok", t("ev_seated", name=view.name(i))))
            self._seated = seated
        elif isinstance(ev, LeftLobby):
            log(("class:warn", t("ev_left_lobby", name=safe_text(ev.name))))
        elif isinstance(ev, ReadyLapsed):
            log(("class:warn", t("ev_ready_lapsed", name=safe_text(ev.name),
                                 seconds=ev.waited)))
        elif isinstance(ev, RematchAnswer):
            if ev.seat == 0 and st.seat not in (None, 0):  # the host's: a new table or not
                key = "ev_host_rematch" if ev.accept else "ev_host_no_rematch"
            elif ev.left:
                key = "ev_rematch_gone"
            else:
                key = "ev_rematch_yes" if ev.accept else "ev_rematch_no"
            log(("class:ok" if ev.accept else "class:warn", t(key, name=view.name(ev.seat))))
        elif isinstance(ev, RematchOffered):  # the host's person pressed r: we may answer
            log(("class:ok", t("ev_host_offers_rematch", name=view.name(ev.seat))))
        elif isinstance(ev, Spectators):
            log(("", t("ev_watching", names=", ".join(ev.names) or t("nobody_watching"))))
        elif isinstance(ev, Notice):  # the library's word to people (it never prints)
            log(("class:warn", notice_text(t, ev)))
        elif isinstance(ev, Chat):
            name = t("you") if own_chat else view.who(ev.seat)
            log(("class:chat", t("ev_chat", name=name, text=safe_text(ev.text))))

    def _play(self, ev: R.PlayEvent, view: TableView) -> None:
        t, cs = view.t, view.cs
        me = "class:me" if ev.seat == view.state.seat else ""
        if ev.capture:
            line: list[tuple[str, str]] = [
                (me, t("who_says", name=view.who(ev.seat))),
                (cs.style(ev.card), view.label(ev.card)),
                ("", " " + t("hint_takes", opts="").strip() + " "),
            ]
            for c in by_value(ev.capture):
                line += [(cs.style(c), view.label(c)), ("", " ")]
            if ev.chkobba:
                line.append(("class:chkobba", t("ev_chkobba")))
            self.add(*line)
        else:
            self.add((me, t("who_says", name=view.who(ev.seat))),
                     (cs.style(ev.card), view.label(ev.card)),
                     ("class:dim", " → " + t("table").lower()))
