"""Every event's words, in one place: :func:`narrate` (``functools.singledispatch``, one
function per kind of event), whatever the output.

Who is told, and how, is the viewpoint, a parameter rather than a table of its own:

- :class:`PanelVoice`: the table's events panel (the screen), in the first person ("you
  play..."), styled fragments, the seat's language;
- :class:`CommentaryVoice`: ``chkobba watch``'s plain lines, in the third person, the
  spectator's language;
- :class:`HeadlessVoice`: a headless peer's lines (``chkobba bot``, ``host --headless``),
  in English, seats by number, for logs and scripts.

A new kind of event gets its words here, once, with a branch per viewpoint that shows it.
What needs the screen (styles, clocks, the lobby's reach lines) the panel's voice brings
itself, so that a headless peer imports no screen.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import singledispatch
from typing import TYPE_CHECKING, Any

from chkobba_p2p import (
    MAX_NAME,
    Aborted,
    Chat,
    ChoiceRefused,
    ErrorCode,
    FirstDealerDrawn,
    HandScored,
    HandStarted,
    LeftLobby,
    Listening,
    Lobby,
    MatchDone,
    Notice,
    Outcome,
    ReadyLapsed,
    RedealEvent,
    RematchAnswer,
    RematchOffered,
    Restored,
    Resumed,
    Spectators,
    Standing,
    TableReady,
    Waiting,
)
from chkobba_p2p.game.cards import Card
from chkobba_p2p.game.rules import CutEvent, DealEvent, PlayEvent, SweepEvent
from chkobba_p2p.game.seating import SHAPES, Seating
from chkobba_p2p.observe.verdict import (
    DECIDED,
    DISPUTED,
    INCOMPLETE,
    INVALID,
    LEFT,
    ON_TIME,
    UNSUPPORTED,
    VALID,
    AbortClaim,
    Note,
    Verdict,
)
from chkobba_p2p.text import safe_text

from .i18n import (
    MESSAGES,
    Translator,
    card_letters,
    coded_words,
    notice_text,
    os_error_key,
    ruleset_text,
    unsupported_words,
)

if TYPE_CHECKING:
    # Events and results of modules a headless bot peer never loads (Tor, port mapping,
    # the auditor): their words are registered late (_late, below), names for types only.
    from chkobba_p2p import (
        OnionPublished,
        PortMapped,
        PortMapUnavailable,
        SocksFailed,
        TableEvent,
        TorBootstrap,
        TorFailed,
        TorStarting,
    )
    from chkobba_p2p.observe.audit import AuditResult
    from chkobba_p2p.observe.observer import DeckRevealed

__all__ = [
    "ClientEvent",
    "BotsStarting",
    "Viewpoint",
    "PanelVoice",
    "CommentaryVoice",
    "HeadlessVoice",
    "narrate",
    "words",
    "violation_words",
    "claim_why",
    "note_words",
    "error_sentence",
    "explain_error",
    "outcome_error",
    "headless_error",
    "connect_words",
]

Fragment = tuple[str, str]


class ClientEvent:
    """The base of the client's own events (beside the library's ``TableEvent``)."""

    __slots__ = ()


@dataclass(frozen=True)
class BotsStarting(ClientEvent):
    """The client starts ``n`` local bot peers (shown in the events panel)."""

    n: int


class Viewpoint:
    """Who is told an event, and how (the base of the three voices below)."""


class PanelVoice(Viewpoint):
    """The events panel, from the local seat's point of view.  Its state (who is gone,
    whether we are back, who sits) makes a line news once; ``view`` is the table after
    the event.  The screen's helpers are its methods (see the subclass,
    :class:`chkobba_cli.tui.parts.narration.EventLog`)."""

    view: Any  # the screen's TableView
    own_chat: bool
    _gone: dict[int, str]
    _back: bool
    _seated: dict[int, str] | None
    _bots_said: int
    _watchers: tuple[str, ...]

    def add(self, *fragments: Fragment) -> None:
        raise NotImplementedError

    def reach_text(self, ev: PortMapped | PortMapUnavailable) -> str:
        raise NotImplementedError

    def stop_lines(self, ev: Aborted) -> Iterable[Sequence[Fragment]]:
        raise NotImplementedError

    def gone_key(self, ev: Waiting) -> str:
        raise NotImplementedError

    def clock_text(self, seconds: float) -> str:
        raise NotImplementedError

    def card_style(self, card: Card) -> str:
        raise NotImplementedError

    def by_value(self, cards: Iterable[Card]) -> list[Card]:
        raise NotImplementedError


class CommentaryVoice(Viewpoint):
    """A spectator's commentary, a plain line per event (see
    :class:`chkobba_cli.outputs.commentary.Commentary`); ``tr`` speaks its language."""

    fr: bool
    tr: Translator
    names: list[str]
    players: int
    _lobby: str

    def t(self, key: str, **kw: object) -> str:
        raise NotImplementedError

    def say(self, line: str) -> None:
        raise NotImplementedError

    def who(self, seat: int | None) -> str:
        raise NotImplementedError

    def side(self, side: int) -> str:
        raise NotImplementedError

    def by_side(self, figures: Sequence[int]) -> str:
        raise NotImplementedError

    def card(self, c: Card) -> str:
        raise NotImplementedError

    def cards(self, cs: Iterable[Card | None]) -> str:
        raise NotImplementedError


class HeadlessVoice(Viewpoint):
    """A headless peer's lines, in English (see
    :class:`chkobba_cli.outputs.headless.Narrator`): ``line`` always, ``quiet_line`` unless
    ``--quiet``."""

    quiet: bool
    bind: str | None
    fingerprint: str
    transport: object
    spectators: int
    onion_code: str | None
    _told_proofs: bool
    tor_failed: TorFailed | None
    stop: Any
    socks_failed: SocksFailed | None
    started: bool

    def line(self, text: str) -> None:
        raise NotImplementedError

    def quiet_line(self, text: str) -> None:
        if not self.quiet:
            self.line(text)

    def listening_lines(self, ev: Listening) -> None:
        raise NotImplementedError

    def reach_line(self, ev: PortMapped | PortMapUnavailable) -> None:
        raise NotImplementedError


_ENGLISH = Translator("en")  # a headless peer's lines are in English


def _clean(text: object, limit: int) -> str:
    """A string from the network, safe to print on a terminal."""
    return "".join(ch for ch in str(text) if ch.isprintable())[:limit]


#: Words for classes whose modules a peer may never load (issue 44: a headless bot peer's
#: memory; Tor, port mapping and the auditor with its process pool are some 1.5 MB): each
#: (class name, public module, handler, dispatcher), registered at the first event or
#: result that finds no handler.  Nothing is lost by waiting: an instance of such a class
#: exists only once its module is loaded, and getting the class from the public module
#: then imports nothing.
_LATE: list[tuple[str, str, Callable[..., Any], Any]] = []


def _late(dispatcher: Any, module: str, *names: str) -> Callable[[Any], Any]:
    """``@dispatcher.register`` for the classes ``names`` of the public ``module``, once an
    instance of one of them is met (see :data:`_LATE`)."""
    def keep(func: Callable[..., Any]) -> Callable[..., Any]:
        _LATE.extend((name, module, func, dispatcher) for name in names)
        return func
    return keep


def _register_late(obj: object) -> bool:
    """Registers the late words for ``obj``'s class (or a base of it); True if any."""
    bases = {c.__name__ for c in type(obj).__mro__}
    found = False
    for entry in [e for e in _LATE if e[0] in bases]:
        name, module, func, dispatcher = entry
        cls = getattr(importlib.import_module(module), name)  # loaded already: obj is one
        if isinstance(obj, cls):
            dispatcher.register(cls, func)
            _LATE.remove(entry)
            found = True
    return found


@singledispatch
def narrate(ev: TableEvent | ClientEvent | object, vp: Viewpoint) -> None:
    """Tell ``vp`` what ``ev`` means, in its words; an event it has no words for says
    nothing (a clock's reading is shown by the clocks, not in words)."""
    if _register_late(ev):
        narrate(ev, vp)


# ----------------------------------------------------------------- the client's own


@narrate.register(BotsStarting)
def _(ev: BotsStarting, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        vp._bots_said += ev.n
        t = vp.view.t
        vp.add(("class:dim", t("ev_bots_1") if ev.n == 1 else t("ev_bots_n", n=ev.n)))


# ----------------------------------------------------------------------- the shell


@narrate.register(Listening)
def _(ev: Listening, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        vp.add(("class:dim", vp.view.t("ev_host_open")))
    elif isinstance(vp, HeadlessVoice):
        vp.listening_lines(ev)


@_late(narrate, "chkobba_p2p", "PortMapped", "PortMapUnavailable")
def _(ev: PortMapped | PortMapUnavailable, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        vp.add(("class:dim", vp.reach_text(ev)))
    elif isinstance(vp, HeadlessVoice):
        vp.reach_line(ev)


@_late(narrate, "chkobba_p2p", "OnionPublished")
def _(ev: OnionPublished, vp: Viewpoint) -> None:
    if isinstance(vp, HeadlessVoice):  # host --tor: its address, once published
        vp.onion_code = f"{ev.onion}:{ev.port}#{vp.fingerprint}"
        vp.line(f"friends through Tor: {vp.onion_code}")


@_late(narrate, "chkobba_p2p", "TorFailed")
def _(ev: TorFailed, vp: Viewpoint) -> None:
    if isinstance(vp, HeadlessVoice):
        from .tor_words import tor_failed_text  # Tor's words: only a peer using Tor

        vp.tor_failed = ev
        print(f"error: {tor_failed_text(_ENGLISH, ev)}", file=sys.stderr, flush=True)
        if not vp.started and vp.stop is not None:
            vp.stop()
        elif vp.fingerprint:
            vp.line(_ENGLISH("tor_failed_goes_on"))


@_late(narrate, "chkobba_p2p", "TorStarting", "TorBootstrap", "SocksFailed")
def _(ev: TorStarting | TorBootstrap | SocksFailed, vp: Viewpoint) -> None:
    if isinstance(vp, HeadlessVoice):
        from chkobba_p2p import SocksFailed  # loaded: this is a Tor event

        from .tor_words import tor_status_text  # Tor's words: only a peer using Tor

        if isinstance(ev, SocksFailed):
            if ev == vp.socks_failed:
                return  # the same answer to the next try: said once
            vp.socks_failed = ev
        text = tor_status_text(_ENGLISH, ev, joining=not vp.fingerprint)
        if text is not None:
            vp.quiet_line(text)


# ------------------------------------------------------------------ the table's link


@narrate.register(Notice)
def _(ev: Notice, vp: Viewpoint) -> None:  # the library's word to people (it never prints)
    if isinstance(vp, PanelVoice):
        vp.add(("class:warn", notice_text(vp.view.t, ev)))
    elif isinstance(vp, HeadlessVoice):
        vp.line(f"notice: {notice_text(_ENGLISH, ev)}")


@narrate.register(Lobby)
def _(ev: Lobby, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        # The screen's only (a headless peer does without the rating's module).
        from chkobba_p2p.observe.rating import bot_level

        # The seats as they fill: a new name is news (the first lobby is the table as we
        # found it, and a Lobby comes again each time someone is ready).
        view, t, st = vp.view, vp.view.t, vp.view.state
        seated = {i: seat[0] for i, seat in enumerate(ev.seats) if seat is not None}
        others = [i for i in sorted(seated) if i != st.seat]
        if vp._seated is None and others and st.seat != 0:
            # A joiner's (or a spectator's) first look: who is there already.
            vp.add(("", t("ev_found", names=", ".join(view.name(i) for i in others))))
        if vp._seated is not None:
            for i, name in sorted(seated.items()):
                if i == st.seat or vp._seated.get(i) == name:
                    continue
                public = ev.keys[i] if i < len(ev.keys) else None
                vouched = ev.bots[i] if i < len(ev.bots) else None
                if vp._bots_said and public is not None and (
                        vouched is not None or bot_level(public) is not None):
                    vp._bots_said -= 1  # one of ours, said as it started
                    continue
                vp.add(("class:ok", t("ev_seated", name=view.name(i))))
        vp._seated = seated
    elif isinstance(vp, CommentaryVoice):
        seats = [_clean(s[0], MAX_NAME) if s else vp.t("lobby_free") for s in ev.seats]
        line = vp.t("wn_lobby", seats=", ".join(seats))
        if line != vp._lobby:  # the host says it again at each "ready": once
            vp._lobby = line
            vp.say(line)
    elif isinstance(vp, HeadlessVoice):
        taken = sum(1 for s in ev.seats if s)
        vp.quiet_line(f"lobby: {taken}/{len(ev.seats)} seated: "
                      + ", ".join(f"{s[0]} [{s[1]}]" if s else "(free)" for s in ev.seats))
        if ev.shuffle_proofs is False and not vp._told_proofs:
            vp._told_proofs = True
            print("warning: shuffle proofs are OFF at this table (the host turned them "
                  "off): a stacked deck is caught only at the end-of-hand check",
                  flush=True)


@narrate.register(LeftLobby)
def _(ev: LeftLobby, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        vp.add(("class:warn", vp.view.t("ev_left_lobby", name=safe_text(ev.name))))


@narrate.register(ReadyLapsed)
def _(ev: ReadyLapsed, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        vp.add(("class:warn", vp.view.t("ev_ready_lapsed", name=safe_text(ev.name),
                                        seconds=ev.waited)))
    elif isinstance(vp, HeadlessVoice):  # a seat the ready check freed: always said
        vp.line(_ENGLISH("ev_ready_lapsed", name=safe_text(ev.name), seconds=ev.waited))


@narrate.register(Spectators)
def _(ev: Spectators, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        t = vp.view.t
        before, vp._watchers = vp._watchers, tuple(ev.names)
        gone = [name for name in before if name not in ev.names]
        for name in gone:  # it read "watching: nobody", and never whom it was
            vp.add(("", t("ev_stopped_watching", name=safe_text(name))))
        if not gone or any(name not in before for name in ev.names):
            vp.add(("", t("ev_watching", names=", ".join(ev.names) or t("nobody_watching"))))
    elif isinstance(vp, CommentaryVoice):
        names = ", ".join(_clean(n, MAX_NAME) for n in ev.names) or vp.t("wn_nobody")
        vp.say(vp.t("wn_watching", n=len(ev.names), max=ev.limit, names=names))


@narrate.register(Chat)
def _(ev: Chat, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        t, view = vp.view.t, vp.view
        name = t("you") if vp.own_chat else view.who(ev.seat)
        vp.add(("class:chat", t("ev_chat", name=name, text=safe_text(ev.text))))
    elif isinstance(vp, CommentaryVoice):
        vp.say(f"<{vp.who(ev.seat)}> {_clean(ev.text, 200)}")


@narrate.register(Waiting)
def _(ev: Waiting, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        # The countdown comes every second: the table shows it live (tui/model/presence.py);
        # the panel notes each drop once.
        view, st = vp.view, vp.view.state
        if ev.seat == 0 and st.seat not in (None, 0):
            vp._back = False  # our link to the host is down: its return is news
        key = vp.gone_key(ev)
        if vp._gone.get(ev.seat) != key:
            vp._gone[ev.seat] = key
            vp.add(("class:warn", view.t(key, name=view.who(ev.seat),
                                         t=vp.clock_text(ev.seconds))))
    elif isinstance(vp, CommentaryVoice):
        vp.say(vp.t("wn_waiting", n=ev.seconds, name=vp.who(ev.seat)))
    elif isinstance(vp, HeadlessVoice):
        what = ("to come back (it stepped away)" if ev.away
                else "to reconnect (this host restarted)" if ev.awaited
                else "to reconnect")
        vp.line(f"waiting for seat {ev.seat} {what}: {ev.seconds}s left")


@narrate.register(Resumed)
def _(ev: Resumed, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        view, t, st = vp.view, vp.view.t, vp.view.state
        if ev.seat != st.seat:
            if vp._gone.pop(ev.seat, None) == "ev_awaited":
                # Waited for by a host that restarted: it was the host that was away,
                # not this player (issue 43, item 9).
                vp.add(("class:ok", t("ev_back_restart_me" if st.seat == 0
                                      else "ev_back_restart", name=view.name(ev.seat),
                                      host=view.name(0))))
                return
            vp.add(("class:ok", view.said("ev_back", ev.seat)))
            return
        if not vp._back:  # once per return, not per message
            vp._back = True
            vp.add(("class:ok", t("ev_back_me")))
        if ev.seat != 0 and vp._gone.pop(0, None) is not None:
            vp.add(("class:ok", view.said("ev_back", 0)))
    elif isinstance(vp, CommentaryVoice):
        vp.say(vp.t("wn_back", name=vp.who(ev.seat)))
    elif isinstance(vp, HeadlessVoice):
        vp.quiet_line(f"seat {ev.seat} is back" + (f" ({ev.entries} entries replayed)"
                                                    if ev.entries else ""))


@narrate.register(Restored)
def _(ev: Restored, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        # After a crash or a step-away: how the table got where it is, again.
        t, n = vp.view.t, vp.view.state.hand_number
        vp.add(("class:ok", t("ev_restored", n=n) if n else t("ev_restored_lobby")))
        vp._back = True  # "you are back" is said: not again for this connection
        own_chat, vp.own_chat = vp.own_chat, False
        for e in ev.hand_events:
            narrate(e, vp)
        vp.own_chat = own_chat


@narrate.register(RematchAnswer)
def _(ev: RematchAnswer, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        view, st = vp.view, vp.view.state
        if ev.seat == 0 and st.seat not in (None, 0):  # the host's: a new table or not
            # At 3 or 4 seats its no may be for another's no or absence: its word only.
            key = "ev_host_rematch" if ev.accept else "ev_host_no_rematch" \
                if len(st.names) <= 2 else "ev_host_no_rematch_many"
        elif ev.left:
            key = "ev_rematch_gone"
        else:
            key = "ev_rematch_yes" if ev.accept else "ev_rematch_no"
        vp.add(("class:ok" if ev.accept else "class:warn",
                view.t(key, name=view.name(ev.seat))))


def refusal_words(t: Translator, ev: ChoiceRefused) -> str:
    """Why a choice of this seat was refused, in ``t``'s language: the rule the move broke,
    or the misuse by its family's code (a choice this program made wrongly); a refusal
    this catalog has no words for, said as one."""
    if ev.rule:
        return t("rule_broken", rule=t.rule(ev.rule)) if ev.rule != "illegal_move" \
            else t.rule(ev.rule)
    return coded_words(t, ev.family, ev.code, dict(ev.data)) or t("ev_choice_refused_why")


@narrate.register(ChoiceRefused)
def _(ev: ChoiceRefused, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        vp.add(("class:warn", vp.view.t("ev_choice_refused", why=refusal_words(vp.view.t, ev))))
    elif isinstance(vp, HeadlessVoice):
        vp.line(_ENGLISH("ev_choice_refused", why=refusal_words(_ENGLISH, ev)))


@narrate.register(RematchOffered)
def _(ev: RematchOffered, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):  # the host's person pressed r: we may answer
        vp.add(("class:ok", vp.view.t("ev_host_offers_rematch", name=vp.view.name(ev.seat))))


# ------------------------------------------------------------------ the signed game


@narrate.register(TableReady)
def _(ev: TableReady, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        if not ev.table.shuffle_proofs:
            vp.add(("class:warn", vp.view.t("ev_no_proofs")))
    elif isinstance(vp, CommentaryVoice):
        table = ev.table
        vp.names = [s.name for s in table.seats]
        vp.players = table.players
        vp.say(vp.t("wn_table", n=table.players,
                    rules=ruleset_text(Translator("fr" if vp.fr else "en"), table.rules)))
        for s in table.seats:
            vp.say(vp.t("wn_seat", seat=s.seat, name=s.name, fp=s.fingerprint))
    elif isinstance(vp, HeadlessVoice):
        vp.started = True


@narrate.register(FirstDealerDrawn)
def _(ev: FirstDealerDrawn, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        view = vp.view
        draws = ", ".join(f"{view.who(s)} {view.label(c)}" for s, c in sorted(ev.draws.items()))
        # Fewer cards than seats: a tie for the lowest, drawn again by the tied seats
        # (said so: two draws in a row read as a mistake).
        players = view.state.players
        again = bool(players) and len(ev.draws) < (players or 0)
        vp.add(("", view.t("ev_first_redraw" if again else "ev_first_draw", draws=draws)))
    elif isinstance(vp, CommentaryVoice):
        vp.say(vp.t("rp_draw", draws=", ".join(
            f"{vp.who(s)} {vp.card(c)}" for s, c in sorted(ev.draws.items()))))


@narrate.register(HandStarted)
def _(ev: HandStarted, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        vp.add(("class:title", vp.view.said("ev_hand", ev.dealer, n=ev.number)))
    elif isinstance(vp, CommentaryVoice):
        vp.say(vp.t("wn_hand", n=ev.number, name=vp.who(ev.dealer)))
    elif isinstance(vp, HeadlessVoice):
        vp.started = True
        vp.quiet_line(f"hand {ev.number}, dealer seat {ev.dealer}")


@narrate.register(RedealEvent)
def _(ev: RedealEvent, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        vp.add(("class:warn", vp.view.t("ev_redeal", name=vp.view.who(ev.dealer))))
    elif isinstance(vp, CommentaryVoice):
        vp.say(vp.t("wn_redeal", name=vp.who(ev.dealer)))
    elif isinstance(vp, HeadlessVoice):
        vp.quiet_line("redeal: three kings on the opening table")


@narrate.register(HandScored)
def _(ev: HandScored, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        view = vp.view
        # Our side first, as the header and the score dialog read them.
        order = view.side_order(len(ev.score.points))
        pts = " - ".join(f"{view.side_name(i)} {ev.score.points[i]}" for i in order)
        # Three totals say whose is whose ("amel 5, bot1 3, bot2 0"); two follow the
        # points' order, which names them.
        tot = view.totals_words(ev.totals) if len(ev.totals) > 2 else \
            " - ".join(str(ev.totals[i]) for i in order)
        vp.add(("class:title", view.t("ev_scored", n=ev.number, points=pts, totals=tot)))
    elif isinstance(vp, CommentaryVoice):
        # Whose each figure is: "hana 2, sami 1, amel 0" ("hana & sami 5" at 4).
        vp.say(vp.t("wn_scored", n=ev.number, points=vp.by_side(ev.score.points),
                    totals=vp.by_side(ev.totals)))
    elif isinstance(vp, HeadlessVoice):
        vp.quiet_line(f"hand {ev.number} points {list(ev.score.points)}, "
                      f"totals {list(ev.totals)}")


@narrate.register(MatchDone)
def _(ev: MatchDone, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        vp.add(("class:ok", vp.view.t("ev_done")))
    elif isinstance(vp, CommentaryVoice):
        w, totals = ev.winner_side, ev.totals
        order = [w, *(i for i in range(len(totals)) if i != w)]  # the winner's first
        score = "-".join(str(totals[i]) for i in order) if len(totals) <= 2 else \
            vp.t("score_three", first=totals[w],
                 rest=", ".join(f"{vp.side(i)} {totals[i]}" for i in order[1:]))
        vp.say(vp.t("wn_over_pl" if vp.players == 4 else "wn_over", name=vp.side(w), score=score))


@narrate.register(Aborted)
def _(ev: Aborted, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        # The players' words (names, a reason in their language, a claim as a claim),
        # never a protocol code or a seat number: see tui/parts/stopped.py.
        for line in vp.stop_lines(ev):
            vp.add(*line)
    elif isinstance(vp, CommentaryVoice):
        blamed = "" if ev.blamed_seat is None else vp.t("wn_claim", name=vp.who(ev.blamed_seat))
        code = ev.code.name.lower() if ev.unknown_code is None \
            else f"code {_clean(ev.unknown_code, 40)}"  # as signed, as the verdict says
        said = violation_words(ev.violation, ev.facts, Translator("fr" if vp.fr else "en"),
                               vp.names) if ev.violation is not None else None
        vp.say(vp.t("wn_ended", name=vp.who(ev.by_seat), code=code, blamed=blamed,
                    why=said if said is not None else _clean(ev.detail, 200)))


# ------------------------------------------------------------------ the rules engine


@narrate.register(DealEvent)
def _(ev: DealEvent, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        view, st = vp.view, vp.view.state
        if ev.draw:
            vp.add(("class:dim", view.said("ev_draw", st.cutter)))
        elif all(r is not None for r in ev.recipients):
            vp.add(("class:dim", view.t("ev_deal", n=st.stock)))
    elif isinstance(vp, CommentaryVoice):
        table = [c for who, c in zip(ev.recipients, ev.cards, strict=True) if who is None]
        counts: dict[int, int] = {}
        for who in ev.recipients:
            if who is not None:
                counts[who] = counts.get(who, 0) + 1
        parts = []
        if table:
            parts.append(vp.t("wn_table_cards", cards=vp.cards(table)))
        if counts:
            parts.append(vp.t("wn_face_down", n=max(counts.values()),
                              names=", ".join(vp.who(s) for s in counts)))
        vp.say(vp.t("wn_drawn" if ev.draw else "wn_deal", what="; ".join(parts)))


@narrate.register(CutEvent)
def _(ev: CutEvent, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        view = vp.view
        if ev.keep:
            vp.add(("", view.said("ev_keep", ev.seat)))
        else:
            assert ev.card is not None  # a placed card is shown
            vp.add(("", view.said("ev_place", ev.seat, card=view.label(ev.card))))
    elif isinstance(vp, CommentaryVoice):
        vp.say(vp.t("ev_keep", name=vp.who(ev.seat)) if ev.keep else
               vp.t("ev_place", name=vp.who(ev.seat), card=vp.cards([ev.card])))
    elif isinstance(vp, HeadlessVoice):
        vp.quiet_line(f"  seat {ev.seat} " + ("keeps the drawn card" if ev.keep
                                              else f"places {ev.card} on the table"))


@narrate.register(PlayEvent)
def _(ev: PlayEvent, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        view = vp.view
        t = view.t
        me = "class:me" if ev.seat == view.state.seat else ""
        if ev.capture:
            line: list[Fragment] = [
                (me, t("who_says", name=view.who(ev.seat))),
                (vp.card_style(ev.card), view.label(ev.card)),
                ("", " " + t("hint_takes", opts="").strip() + " "),
            ]
            for c in vp.by_value(ev.capture):
                line += [(vp.card_style(c), view.label(c)), ("", " ")]
            if ev.chkobba:
                line.append(("class:chkobba", t("ev_chkobba")))
            vp.add(*line)
        else:
            vp.add((me, t("who_says", name=view.who(ev.seat))),
                   (vp.card_style(ev.card), view.label(ev.card)),
                   ("class:dim", " → " + t("table").lower()))
    elif isinstance(vp, CommentaryVoice):
        take = vp.t("rp_takes", cards=vp.cards(sorted(ev.capture))) if ev.capture else ""
        vp.say(vp.t("playing", name=vp.who(ev.seat), card=vp.card(ev.card)) + take
               + ("  CHKOBBA!" if ev.chkobba else ""))
    elif isinstance(vp, HeadlessVoice):
        took = " ".join(c.text for c in sorted(ev.capture))
        vp.quiet_line(f"  seat {ev.seat} plays {ev.card}"
                      + (f", takes {took}" if took else "") + (" CHKOBBA" if ev.chkobba else ""))


@narrate.register(SweepEvent)
def _(ev: SweepEvent, vp: Viewpoint) -> None:
    if isinstance(vp, PanelVoice):
        if ev.seat is not None and ev.cards:
            vp.add(("class:dim", vp.view.said("ev_sweep", ev.seat,
                                              cards=vp.view.labels(ev.cards))))
    elif isinstance(vp, CommentaryVoice) and ev.cards:
        vp.say(vp.t("wn_rest", name=vp.who(ev.seat), cards=vp.cards(ev.cards)))


# -------------------------------------------------------------------- the observer


@_late(narrate, "chkobba_p2p.observe.observer", "DeckRevealed")
def _(ev: DeckRevealed, vp: Viewpoint) -> None:
    if isinstance(vp, CommentaryVoice):
        what = vp.t("wn_abandoned") if ev.redeal else vp.t("hand_no", n=ev.hand)
        vp.say(vp.t("wn_revealed", what=what, hands="; ".join(
            f"{vp.who(s)} {vp.cards(ev.dealt_to(s))}" for s in range(vp.players))))


@narrate.register(Verdict)
def _(ev: Verdict, vp: Viewpoint) -> None:
    if not isinstance(vp, CommentaryVoice):
        return
    if ev.verdict == UNSUPPORTED:  # a table capability we do not know: no judgement
        vp.say(vp.t("verdict_unsupported", why=unsupported_words(vp.tr, ev.unknown_caps)))
        return
    head = vp.t({VALID: "rh_valid", INVALID: "wn_cheat"}.get(ev.verdict, "au_incomplete"))
    blame = ""
    if ev.verdict == INVALID:
        blame = vp.t("wn_blamed", name=vp.who(ev.blamed)) if ev.blamed is not None \
            else vp.t("wn_altered")
    where = vp.t("wn_at", n=ev.entry) if ev.entry is not None else ""
    # In the players' names and the spectator's language (words, below).
    why = words(ev, vp.tr, names=vp.names) if vp.names or ev.finding or ev.violation \
        else ev.reason
    vp.say(vp.t("wn_verdict", head=head, where=where, why=why, blame=blame,
                code=vp.t("wn_code", code=ev.code) if ev.code else ""))


# ------------------------------------------------------- results, worded once


@singledispatch
def words(obj: object, t: Translator, **kw: Any) -> str:
    """``obj`` (a result the library gives as data: an :class:`Aborted`, an
    :class:`Outcome`) in one sentence for people, in ``t``'s language.  The library keeps
    the data and a developer's ``repr``; the words are here, once."""
    if _register_late(obj):
        return words(obj, t, **kw)
    raise TypeError(f"no words for {type(obj).__name__}")


@words.register(Aborted)
def _(a: Aborted, t: Translator, name: Callable[[int], str] | None = None) -> str:
    """How a game stopped, an unproven accusation worded as a claim; ``name(seat)``
    names seats (default "seat N").  The signer's own words are shown, made safe."""
    def who(seat: int) -> str:
        return name(seat) if name is not None else t("ab_seat", n=seat)
    code = a.code.name.lower() if a.unknown_code is None \
        else t("ab_code", code=safe_text(a.unknown_code, 40))
    # Our own check's code in the reader's words; else the signer's own words: shown,
    # never obeyed by a terminal.
    said = violation_words(a.violation, a.facts, t, who) \
        if a.violation is not None else None
    why = t("ab_why", why=said) if said is not None else \
        t("ab_why", why=safe_text(a.detail, 1000)) if a.detail else ""
    by, blamed = who(a.by_seat), a.blamed_seat
    if blamed is None:
        return t("ab_nobody", by=by, code=code, why=why)
    if a.resigned:
        return t("ab_resigned", by=by)
    if a.flag is not None:
        # The transcript shows whose turn it was; the time itself is the signer's word.
        return t("ab_flag", late=who(a.flag), by=by, code=code, why=why)
    if a.disputed_by is not None and a.disputed_flag is not None:
        return t("ab_disputed", by=by, flagged=who(a.disputed_by), code=code, why=why)
    if a.decided is not None:
        return t("ab_decided", by=by, code=code, why=why)
    if a.standing == Standing.SELF:
        return t("ab_ran_out" if a.code is ErrorCode.TIMEOUT else "ab_left",
                 by=by, code=code, why=why)
    if a.standing == Standing.PROVEN:
        return t("ab_proven", by=by, blamed=who(blamed), code=code, why=why)
    said = t("ab_says", by=by, blamed=who(blamed), code=code, why=why)
    if a.standing == Standing.OWED:
        return t("ab_owed", said=said, blamed=who(blamed))
    if a.standing == Standing.REFUTED:
        return t("ab_refuted", said=said)
    return t("ab_claimed", said=said)


def _side_won(o: Outcome, side: int, t: Translator) -> str:
    """``hana wins``, ``hana and sami win``: the players of a side by name (seats
    ``side``, ``side + 2``...), ``side N`` when the table is unknown."""
    names: list[str] = []
    if o.table is not None and 0 <= side < o.table.seating.sides:
        names = [o.table.seats[s].name for s in o.table.seating.seats_of(side)]
    if not names:
        return t("oc_wins", who=t("oc_side", n=side))
    who = names[0]
    for n in names[1:]:
        who = t("oc_and", a=who, b=n)
    return t("oc_wins_pl" if len(names) > 1 else "oc_wins", who=who)


@words.register(Outcome)
def _(o: Outcome, t: Translator) -> str:
    """How the match ended for this peer (the headless ``result:`` line)."""
    def seat_name(seat: int) -> str:
        return o.table.seats[seat].name if o.table is not None else t("ab_seat", n=seat)
    d, a = o.done, o.aborted
    if d is not None:
        hands = t("oc_hands_1") if d.hands == 1 else t("oc_hands_n", n=d.hands)
        return t("oc_done", hands=hands, won=_side_won(o, d.winner_side, t), score=d.score)
    if a is not None and a.decided is not None:
        return t("oc_decided", won=_side_won(o, a.decided, t))
    loser = o.resigned if o.resigned is not None else o.left \
        if o.left is not None else o.convicted
    winner = o.winner_side
    if loser is not None:
        what = t("oc_resigned" if o.resigned is not None else "oc_left"
                 if o.left is not None else "oc_convicted")
        if winner is None:  # at 3 players, the two others level
            return t("oc_quit_level", quitter=seat_name(loser), what=what)
        return t("oc_quit", quitter=seat_name(loser), what=what, won=_side_won(o, winner, t))
    if o.on_time is not None:
        by = a.by_seat if a is not None else 0
        clock = t("oc_host_clock") if by == 0 else t("oc_clock_of", name=seat_name(by))
        if winner is None:
            return t("oc_time_level", late=seat_name(o.on_time), clock=clock)
        return t("oc_time", late=seat_name(o.on_time), clock=clock,
                 won=_side_won(o, winner, t))
    if a is not None:
        # An unproven accusation is worded as the signer's claim.
        return t("oc_aborted", why=words(a, t))
    return t("oc_no_game", error=connect_words(o.error_reason, o.error_code, o.error_data, t))


@words.register(Verdict)
def _(v: Verdict, t: Translator, names: Sequence[str] = ()) -> str:
    """An observer's verdict in the players' words: ``names`` are the seats' names (the
    table's order), sides at 4 players "ali & sami".  "bob resigned (entry #115): alice
    wins the match by resignation"; "complete: alice wins 11-7"; for what no name
    changes (a violation), the verdict's own :attr:`~Verdict.reason`."""
    n = len(names)
    teams = n in SHAPES and Seating.of(n).teams

    def who(seat: int | None) -> str:
        if seat is not None and 0 <= seat < n:
            return names[seat]
        return t("vd_nobody") if seat is None else t("ab_seat", n=seat)

    def wins(side: int) -> str:  # the verb agrees: "ali & sami win", "alice wins"
        if not teams:
            return t("oc_wins", who=who(side))
        a, b = (names[x] for x in Seating.of(n).seats_of(side))
        return t("oc_wins_pl", who=t("vd_team", a=a, b=b))

    def won(what: str) -> str:
        return t(what, won=wins(v.winner)) if v.winner is not None else t("vd_level")

    at = t("vd_at", n=v.entry) if v.entry is not None else ""
    score = "-".join(map(str, sorted(v.totals, reverse=True)))
    if v.verdict == VALID and v.code == ON_TIME:
        host = v.by_seat == 0
        return t("vd_on_time", late=who(v.blamed), at=at, by=who(v.by_seat),
                 role=t("vd_role_host") if host else "", won=won("vd_won_on_time"),
                 word=t("vd_the_host") if host else who(v.by_seat))
    if v.verdict == VALID and v.code == LEFT and v.by_seat is not None:
        return t("vd_left", by=who(v.by_seat), at=at, won=won("vd_won_match"))
    if v.verdict == VALID and v.code == DECIDED and v.winner is not None:
        return t("vd_decided", won=wins(v.winner), score=score)
    if v.verdict == INCOMPLETE and v.code == DISPUTED and v.blamed is not None \
            and v.by_seat is not None:
        return t("vd_disputed", by=who(v.by_seat), late=who(v.blamed), at=at)
    if v.verdict == VALID and v.code == "resigned" and v.winner is None \
            and v.by_seat is not None:
        return t("vd_resigned_level", by=who(v.by_seat), at=at)
    if v.verdict == VALID and v.code == "resigned" and v.winner is not None:
        return t("vd_resigned", by=who(v.by_seat), at=at, won=wins(v.winner))
    if v.verdict == VALID and v.winner is not None and v.totals:
        return t("vd_complete", won=wins(v.winner), score=score)
    if v.verdict == INVALID and (conviction := convicted_words(v, t, names)) is not None:
        return _observer_reason(v, t, names) + t("au_convicted", conviction=conviction)
    if v.verdict == INCOMPLETE and v.code == "aborted" and v.by_seat is not None:
        by = who(v.by_seat)
        if v.standing == Standing.SELF:
            what = t("vd_left_game", by=by)
        elif v.standing == Standing.OWED and v.blamed is not None:
            what = t("vd_owed", by=by, blamed=who(v.blamed))
        elif v.standing == Standing.REFUTED:
            what = t("vd_refuted", by=by)
        else:
            what = t("vd_ended", by=by)
        return t("vd_aborted", what=what)
    return _observer_reason(v, t, names)


def convicted_words(v: Verdict, t: Translator, names: Sequence[str]) -> str | None:
    """An INVALID verdict that convicts a seat (an entry it signed breaks a rule, while
    the match was played: :attr:`Verdict.loser`) as its consequence: "bob is convicted
    ...: bob loses the match; alice wins"; None when it convicts nobody."""
    n = len(names)
    if v.verdict != INVALID or v.loser is None or v.blamed is None \
            or n not in SHAPES or not 0 <= v.blamed < n:
        return None
    seating = Seating.of(n)
    if not 0 <= v.loser < seating.sides:
        return None

    def side(s: int) -> tuple[str, bool]:
        seats = seating.seats_of(s)
        if len(seats) == 1:
            return names[seats[0]], False
        return t("vd_team", a=names[seats[0]], b=names[seats[1]]), True
    lost, plural = side(v.loser)
    lose = t("cv_loses_pl" if plural else "cv_loses", side=lost)
    if v.winner is not None and 0 <= v.winner < seating.sides:
        won, plural = side(v.winner)
        won = t("oc_wins_pl" if plural else "oc_wins", who=won)
    else:
        won = t("vd_level")  # at 3 players, the two others level
    return t("cv_convicted", name=names[v.blamed], lose=lose, won=won)


@words.register(AbortClaim)
def _(c: AbortClaim, t: Translator, name: Callable[[int], str] | None = None) -> str:
    """An abort as an auditor read it, an unproven accusation worded as a claim
    (``name(seat)`` names seats; default "seat N").  Its code and reason are as the
    auditor kept them (made safe there)."""
    def who(seat: int) -> str:
        return name(seat) if name else t("ab_seat", n=seat)
    by = who(c.by_seat)
    said = claim_why(c, t, who)
    why = t("ab_why", why=said) if said else ""
    if c.blamed is None:
        return t("cl_nobody", by=by, code=c.code, why=why)
    blamed = who(c.blamed)
    if c.code == "resigned" and c.blamed == c.by_seat:
        return t("cl_resigned", by=by)
    if c.on_time:
        return t("cl_on_time", late=blamed, by=by, code=c.code, why=why)
    if c.standing == Standing.SELF:
        return t("cl_ran_out" if c.code == ErrorCode.TIMEOUT.name.lower() else "cl_left",
                 by=by, code=c.code, why=why)
    if c.standing == Standing.PROVEN:
        return t("cl_proven", by=by, blamed=blamed, code=c.code, why=why)
    said = t("cl_says", by=by, blamed=blamed, code=c.code, why=why)
    if c.standing == Standing.OWED:
        return t("cl_owed", said=said, blamed=blamed)
    if c.standing == Standing.REFUTED:
        return t("cl_refuted", said=said)
    if c.standing == Standing.DISPUTED:
        return t("cl_dispute" if c.code == ErrorCode.CLOCK_DISPUTE.name.lower()
                 else "cl_flagged", by=by, blamed=blamed, code=c.code, why=why)
    return t("cl_claimed", said=said)


#: The facts that name a seat, and those that name a card (by its id 0..39).
_SEAT_FACTS = frozenset({"seat", "floor", "signer"})
_CARD_FACTS = frozenset({"card", "shown"})


#: The seats' names in the table's order, or a function naming a seat.
Names = Sequence[str] | Callable[[int], str]


def _fact_words(facts: Sequence[tuple[str, str | int]], t: Translator,
                names: Names) -> dict[str, object]:
    """A finding's or a violation's facts as the reader reads them: a seat by its
    player's name, a card in the reader's letters, a text (the other side's bytes, or
    a check's or the log reader's own words) made safe."""
    out: dict[str, object] = {}
    for k, x in facts:
        if k in _SEAT_FACTS and isinstance(x, int):
            out[k] = names(x) if callable(names) else names[x] if 0 <= x < len(names) \
                else t("ab_seat", n=x)
        elif k in _CARD_FACTS and isinstance(x, int) and 0 <= x < 40:
            out[k] = card_letters(Card(x).label(), t.lang)
        else:
            out[k] = safe_text(x, _THEIR_WORDS) if isinstance(x, str) else x
    return out


def violation_words(code: str, facts: Sequence[tuple[str, str | int]], t: Translator,
                    names: Names = ()) -> str | None:
    """A check's violation (:data:`chkobba_p2p.errors.VIOLATIONS`) in the reader's words,
    or None for a code this client has no words for (a newer library's)."""
    if "vi_" + code not in MESSAGES:
        return None
    try:
        return t("vi_" + code, **_fact_words(facts, t, names))
    except (KeyError, IndexError):  # facts a newer library added to an old code
        return None


def note_words(note: str, t: Translator, names: Names = ()) -> str:
    """An auditor's warning in the reader's words (a :class:`Note`'s code and facts),
    else as it was kept (a warning read back from JSON, a code this client does not
    know), made safe."""
    if isinstance(note, Note) and "wa_" + note.code in MESSAGES:
        with contextlib.suppress(KeyError, IndexError):
            return t("wa_" + note.code, **_fact_words(note.facts, t, names))
    return safe_text(note, 1000)


def claim_why(c: AbortClaim, t: Translator, names: Names = ()) -> str:
    """An abort's reason as a reader reads it: the violation the observer's own check
    found, when it proves the claim, in the reader's words; else the signer's own words
    as the auditor kept them (made safe there), quoted as theirs."""
    if c.violation is not None:
        said = violation_words(c.violation, c.facts, t, names)
        if said is not None:
            return said
    return c.why


def _observer_reason(r: AuditResult | Verdict, t: Translator,
                     names: Sequence[str] = ()) -> str:
    """What the observer words alone (a violation, a torn or unfinished file, a table
    it cannot audit): the client's words for its finding or the check's violation, with
    their facts; else its own sentence in English (a code this client does not know)."""
    v = r if isinstance(r, Verdict) else r.outcome
    if not names and not isinstance(r, Verdict):  # an AuditResult (its class loads late)
        names = r.names
    if v is not None and v.finding is not None and "of_" + v.finding in MESSAGES:
        # The observer's own finding (FINDINGS), in the reader's words with its facts (a
        # check's or the log reader's own words among them, made safe).
        facts = _fact_words(v.facts, t, names)
        if "detail" in facts and v.violation is not None:
            # The check's own English, in the reader's words when its code has some.
            said = violation_words(v.violation, v.facts, t, names)
            facts["detail"] = said if said is not None else facts["detail"]
        if "phase" in facts and f"of_phase_{facts['phase']}" in MESSAGES:
            facts["phase"] = t(f"of_phase_{facts['phase']}")
        return t("of_" + v.finding, **facts)
    if v is not None and v.violation is not None \
            and (said := violation_words(v.violation, v.facts, t, names)) is not None:
        return said
    if t.lang == "en":
        return r.reason
    if r.verdict == INCOMPLETE and r.code == "truncated":
        return t("verdict_truncated")
    if r.verdict == INCOMPLETE and r.code == "unfinished":
        return t("verdict_unfinished")
    caps = r.unknown_caps if isinstance(r, Verdict) else \
        r.outcome.unknown_caps if r.outcome is not None else ()
    if r.verdict == UNSUPPORTED and caps:
        return unsupported_words(t, caps)
    return r.reason


@_late(words, "chkobba_p2p.observe.audit", "AuditResult")
def _(r: AuditResult, t: Translator) -> str:
    """An audit's result in one line, in the players' names (``chkobba replay``'s last
    line, ``chkobba history``'s reason): "VALID: 54 entries; every check passes; the
    match ended when a player left: alice left the match (entry #53): bob wins the
    match".  An unproven accusation is worded as a claim."""
    names = r.names

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else t("ab_seat", n=seat)

    def why() -> str:  # the verdict in the players' names
        if r.outcome is None or (r.verdict == INCOMPLETE
                                 and r.code in ("truncated", "unfinished")):
            return _observer_reason(r, t)
        return words(r.outcome, t, names=names)
    n = r.entries
    if r.verdict == VALID and r.code == "resigned":
        return t("au_valid_resigned", n=n, why=why())
    if r.verdict == VALID and r.code == ON_TIME:
        return t("au_valid_on_time", n=n, why=why())
    if r.verdict == VALID and r.code == LEFT:
        return t("au_valid_left", n=n, why=why())
    if r.verdict == VALID and r.code == DECIDED:
        return t("au_valid_decided", n=n, why=why())
    if r.verdict == INCOMPLETE and r.code == DISPUTED:
        return t("au_disputed", why=why())
    if r.verdict == VALID and r.outcome is not None and r.outcome.winner is not None:
        return t("au_valid_won", n=n, why=why())
    if r.verdict == VALID:
        return t("au_valid", n=n)
    if r.verdict == UNSUPPORTED:  # nobody is blamed, nothing is concluded
        return t("au_unsupported", code=r.code, why=_observer_reason(r, t))
    where = t("au_where", n=r.entry) if r.entry is not None else ""
    blame = ""
    if r.verdict == INVALID:
        b = r.blamed
        if b is None:
            who = t("au_no_seat")
        elif 0 <= b < len(names):
            who = t("au_seat", name=names[b], fp=r.fingerprints[b])
        else:
            who = t("ab_seat", n=b)
        blame = t("au_blamed", who=who)
        if r.outcome is not None \
                and (conviction := convicted_words(r.outcome, t, names)) is not None:
            blame += t("au_convicted", conviction=conviction)
    elif r.code == "aborted" and r.abort is not None \
            and r.abort.standing != Standing.SELF:
        # An abort is its signer's word: worded as a claim unless the log shows it.
        # (One its signer signed against itself -- it left, or ran out of its own time
        # -- is what the verdict's own words already say.)
        blame = t("au_claim", claim=words(r.abort, t, name=name))
    return t("au_line", head=t("au_invalid" if r.verdict == INVALID else "au_incomplete"),
             code=r.code, where=where,
             why=why() if r.verdict == INCOMPLETE else _observer_reason(r, t), blame=blame)


# -- why there was no game -----------------------------------------------------------------------

#: A host's own words (its text past its code's sentence) and a lower layer's detail are
#: made safe and kept to this many characters (the library already cut the host's to 120).
_THEIR_WORDS = 300


def _host_code_words(code: str, number: object, host_text: str, t: Translator) -> str:
    """A host's error code in the reader's words, then whatever else the host wrote, quoted
    as its own (a hostile host's text is never shown as this program's)."""
    known = ErrorCode.from_wire(number) if isinstance(number, int) else None
    if known is None and number is None:  # no number kept: the code's name says it
        known = next((c for c in ErrorCode if c.name.lower() == code), None)
    what = (t("wire_" + known.name.lower()) if known is not None
            else t("oe_unknown_code", n=number if isinstance(number, int) else "?"))
    text = safe_text(host_text, _THEIR_WORDS)
    return t("oe_host_adds", what=what, text=text) if text else what


def error_sentence(reason: str | None, code: str | None, data: Mapping[str, object],
                   t: Translator) -> str:
    """Why a join got no game (:attr:`~chkobba_p2p.Outcome.error_reason` and its
    :attr:`~chkobba_p2p.Outcome.error_data`), one sentence in
    ``t``'s language; :func:`explain_error` says the usual cases plainer."""
    data = _check_said(data, t)

    def get(key: str) -> str:
        value = data.get(key, "")
        if isinstance(value, float):
            return f"{value:g}"
        return safe_text(str(value), _THEIR_WORDS)

    if reason == "refused":
        return t("oe_refused", what=_host_code_words(
            get("code"), data.get("number"), str(data.get("host_text", "")), t))
    if reason == "game_unknown":
        said = t("oe_game_unknown", where=get("where"))
        return t("oe_filed", said=said, filed=get("filed")) if "filed" in data else said
    if reason == "no_table":
        return (t("oe_no_table_why", detail=get("detail")) if "detail" in data
                else t("oe_no_table", seconds=get("seconds")))
    if reason == "lobby_ended":
        return t("oe_lobby_ended", code=get("code"), text=get("host_text"))
    if reason is not None and "oe_" + reason in MESSAGES:
        return t("oe_" + reason, **{k: get(k) for k in data})
    return t("oc_unknown_error") if code is None else safe_text(code, 80)


def explain_error(reason: str | None, code: str | None, data: Mapping[str, object],
                  t: Translator) -> str:
    """Why a join got no game, plain where the case is a usual one (a closed port, the
    OS's failure to connect, a full table, a freed seat, a secret...), else as
    :func:`error_sentence` says it."""
    if reason is None:  # an outcome made with a code alone: the code's usual case
        reason = {"host_closed": "lobby_shutdown", "game_unknown": "game_unknown"}.get(
            code or "")
    if reason in (None, "closed_in_handshake", "lobby_closed"):
        return t("err_closed")
    if reason == "lobby_shutdown":
        return t("err_host_closed")
    if reason == "game_unknown":
        filed = data.get("filed")
        return t("err_game_unknown") + (
            f" ({safe_text(str(filed), _THEIR_WORDS)})" if filed is not None else "")
    if reason == "connect_refused":
        return t("err_refused_conn")
    if reason in ("connect_failed", "unreachable"):
        why = str(data.get("why", ""))
        low = why.lower()
        if "connect call failed" in low or "connection refused" in low or \
                f"errno {errno.ECONNREFUSED}" in low:
            return t("err_refused_conn")
        # The OS's words, said for a person: a fresh join only (a saved game's host out of
        # reach keeps "try again later", the point of its sentence).
        if reason == "connect_failed" and (key := os_error_key(why)) is not None:
            return t(key)
    if reason in ("refused", "lobby_ended", "handshake_failed"):
        plain = {"seat_refused": "err_seat_refused", "ready_timeout": "err_ready_timeout",
                 "secret_required": "err_secret_required",
                 "secret_wrong": "err_secret_wrong"}.get(code or "")
        if plain is not None:
            return t(plain)
        said = error_sentence(reason, code, data, t)
        if code == "table_full":
            return f"{t('err_full')} ({said})"
        if code == "version_mismatch":
            return f"{t('err_version')} ({said})"
        return said
    return error_sentence(reason, code, data, t)


def outcome_error(o: Outcome, t: Translator, plain: bool = True) -> str:
    """Why ``o`` had no game, in ``t``'s language (:func:`explain_error`, or with
    ``plain`` False :func:`error_sentence`)."""
    said = explain_error if plain else error_sentence
    return said(o.error_reason, o.error_code, o.error_data, t)


def connect_words(reason: str | None, code: str | None, data: Mapping[str, object],
                  t: Translator) -> str:
    """:func:`error_sentence`, with an OS failure to connect said as one sentence after
    the address (a headless peer's log, the spectator's refusal)."""
    # A fresh connection only: a saved game's host out of reach is said as such ("try
    # again later"), whatever the OS answered.
    why = str(data.get("why", ""))
    key = ("err_refused_conn" if reason == "connect_refused"
           else os_error_key(why) if reason == "connect_failed" else None)
    if key is not None:
        return t("connect_error", addr=safe_text(str(data.get("where", "")), 300), why=t(key))
    return error_sentence(reason, code, data, t)


def _check_said(data: Mapping[str, object], t: Translator) -> Mapping[str, object]:
    """A reason's data with a failed check's ``detail`` (its English) in the reader's
    words, when the check has a code this client words (``violation``, ``facts``)."""
    code, facts = data.get("violation"), data.get("facts", ())
    if not isinstance(code, str) or not isinstance(facts, tuple):
        return data
    said = violation_words(code, [f for f in facts if isinstance(f, tuple) and len(f) == 2],
                           t)
    return data if said is None else {**data, "detail": said}


def stop_words(reason: str | None, data: Mapping[str, object], t: Translator) -> str:
    """Why a watching stopped once admitted (:attr:`~chkobba_p2p.WatchOutcome.stop_reason`,
    one of the library's ``STOP_REASONS``, and its ``stop_data``), one sentence in ``t``'s
    language: the host's words and a check's detail made safe, never trusted."""
    data = _check_said(data, t)

    def get(key: str) -> str:
        return safe_text(str(data.get(key, "")), 200)

    if reason in ("unreadable", "out_of_state", "too_long"):
        return t("ws_sent", what=t("ws_" + reason), code=get("code"), detail=get("detail"))
    if reason == "host_silent":
        return t("ws_host_silent")
    # host_closed, or a reason this client does not know: the connection is gone.  Only
    # the host's own message says that the host closed it; a stream that simply ended
    # says nothing of who closed it (the host may have stepped away, or a network
    # dropped), so it is said of the connection, with how long the players wait for the
    # host when the match was under way.
    said = get("host_text")
    if said:
        return t("ws_host_closed_said", text=said)
    wait = get("host_allowance")
    if wait.isdigit():
        secs = int(wait)
        return t("ws_host_waited", t=f"{secs // 60}:{secs % 60:02d}")
    return t("watch_host_closed")


def headless_error(o: Outcome, t: Translator) -> str:
    """Why ``o`` had no game, for a headless peer's log (:func:`connect_words`)."""
    return connect_words(o.error_reason, o.error_code, o.error_data, t)
