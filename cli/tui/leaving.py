"""Leaving a table, and coming back to one: the app's actions behind ``q``/Ctrl-C
(step away or resign at a table with people; leave against local bots) and behind ``r``
at the end of a match (play again at the same table).  Mixed into
:class:`~.app.TuiApp`, whose state they read and set."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import trio

from chkobba_p2p import Outcome, SeatController, TableState

__all__ = ["Leaving"]


class Leaving:
    kind: str
    finished: bool
    left: bool
    confirm_leave: bool
    confirm_resign: bool
    leave_by_interrupt: bool
    leave_requested: bool
    stepping_away: bool
    rematch_requested: bool
    rematch_open: bool
    rematch_answered: bool | None
    rematch_answers: dict[int, bool]
    rematch_offered: bool
    rematch_people: int
    rematch_bots: int
    rematch_gone: set[int]
    _rematch_wake: trio.Event | None
    peer_ended: bool
    pacer: Any
    request: Any
    outcome: Outcome | None
    state: TableState
    controller: SeatController | None
    token: trio.lowlevel.TrioToken | None
    cancel_scope: trio.CancelScope | None
    t: Any
    log: Callable[..., None]
    invalidate: Callable[[], None]
    exit: Callable[[], None]
    presence: Any
    reconnect_allowance: float
    past: Any  # PastGames | None: the records of the logs

    def allowance_left(self) -> float:
        """Seconds of this seat's allowance of time away still left for the match, as
        the peer's clocks last read them (:class:`~chkobba_p2p.ClockReading`); the
        table's limit until a reading came."""
        seat = self.state.seat
        left = self.presence.allowance_left.get(seat if seat is not None else -1)
        return self.reconnect_allowance if left is None else float(left)

    def request_leave(self, interrupt: bool = False) -> None:
        """Ctrl-C (``interrupt``) / q: ask first (step away or resign, at a table with
        people); a second Ctrl-C (or SIGINT, SIGTERM, SIGHUP) quits at once, as a
        step-away.  Only a dialog opened by Ctrl-C says so."""
        unanswered = self.rematch_open and self.rematch_answered is None
        if self.finished and (unanswered or (self.rematch_waiting
                                             and self.kind == "host")):
            self.answer_rematch(False)  # no rematch: the others are told, then we quit
        elif self.finished:
            if self.rematch_waiting:  # a joiner no longer waits for the host's answer
                self.rematch_answered = False
            self.exit()
        elif self.confirm_leave:
            self.leave_now()
        else:
            self.confirm_leave = True
            self.leave_by_interrupt = interrupt
            self.invalidate()

    def leave_now(self) -> None:
        """Leave the game: cancel the peer (trio cleans up), then the app exits.  At a
        table with people (host, join) this is a step-away: the others are told, the game
        waits; against local bots (play), leaving is leaving."""
        self.confirm_leave = self.confirm_resign = False
        if self.finished:
            if self.rematch_open and self.rematch_answered is None:
                # no rematch: said, then the screen closes as trio ends
                self.answer_rematch(False)
            else:
                self.exit()
            return
        if self.can_step_away and not self.stepping_away:
            self.stepping_away = True
            self._in_trio(lambda c: c.step_away())
        if not self.leave_requested:
            self.leave_requested = True
            self.left = True
            self.log(("class:warn", self.t("left")))
        self.cancel_trio()

    @property
    def can_step_away(self) -> bool:
        """A game with people is running: leaving is stepping away (in a lobby, or
        against local bots, leaving is leaving)."""
        return self.kind != "play" and self.state.started and not self.finished

    def resign_now(self) -> None:
        """Resign: a signed resignation; the match ends with a loss for our side."""
        self.confirm_leave = self.confirm_resign = False
        if not self.finished:
            self._in_trio(lambda c: c.resign())

    def _in_trio(self, call: Callable[[SeatController], object]) -> None:
        controller, token = self.controller, self.token
        if controller is not None and token is not None:
            with contextlib.suppress(trio.RunFinishedError):
                token.run_sync_soon(call, controller)

    def offers_rematch(self, o: Outcome | None) -> bool:
        """A match was played with people (host or join) and is over."""
        return self.kind != "play" and not self.left \
            and o is not None and o.table is not None \
            and (o.done is not None or o.aborted is not None)  # a match was played out

    async def decide_rematch(self, o: Outcome) -> bool | None:
        """The peer asks (:meth:`SeatController.after_match`, the connections still
        open): the end screen shows, r plays again, q does not.  A host that says yes
        waits for every joining person's answer, and one no is enough: nobody is left
        waiting at a new table alone.  A joiner's yes goes at once; the host's own answer
        then comes as a :class:`RematchAnswer` of seat 0."""
        await self.pacer.drained()
        self.finished, self.outcome, self.request = True, o, None
        if self.past is not None:
            # The end screen shows now, while the peer still runs (its connections
            # open for the rematch): the logs were read before this match, whose log
            # is complete on disk by now.  Read them again, or the records would
            # miss it until the peer's run ends (on_trio_done reads them once more).
            self.past.refresh()
        if not self.offers_rematch(o):
            return None
        self.rematch_open = True
        self.invalidate()
        try:
            while True:
                mine, got = self.rematch_answered, self.rematch_answers
                if mine is False:
                    return False
                if mine and self.kind != "host":
                    return True
                # Local bots answer nothing and leave; more seats gone than bots means
                # a person left.  One no, or one person gone, is enough: no table.  The
                # host says so at once, before its own person answers: a joiner who said
                # yes would otherwise wait for a table that cannot come (walk6: a third
                # seat gone, the joiner's r waited on the host's person; the host's
                # screen, which stays until q, had offered nothing).
                gone = len(self.rematch_gone)
                noes = sum(1 for s, a in got.items() if not a and s not in self.rematch_gone)
                if (mine or self.kind == "host") and (noes or gone > self.rematch_bots):
                    return False
                if mine and sum(got.values()) >= self.rematch_people:
                    self.rematch_requested = True
                    return True
                self._rematch_wake = trio.Event()
                await self._rematch_wake.wait()
        finally:
            self.invalidate()

    def rematch_changed(self) -> None:
        """An answer came (ours or another seat's): the question looks again."""
        wake = self._rematch_wake
        if wake is not None:
            wake.set()

    def answer_rematch(self, accept: bool) -> None:
        """r (``accept``) or q at the end of the match: our answer, to the peer (or, its
        run over, a host having said no for a player gone: the screen closes)."""
        self.rematch_answered = accept
        self.invalidate()
        if self.peer_ended:
            self.exit()
            return
        token = self.token
        if token is not None:
            with contextlib.suppress(trio.RunFinishedError):
                token.run_sync_soon(self.rematch_changed)

    @property
    def can_rematch(self) -> bool:
        """The end screen asks whether to play again, and we have not answered."""
        return self.rematch_open and self.rematch_answered is None \
            and not self.rematch_refused

    @property
    def rematch_refused(self) -> bool:
        """Another answered no (or left) before us: no rematch any more, so none is
        offered (at a joiner, the host's no; at the host, one person's no or absence)."""
        if self.kind != "host":
            return self.rematch_answers.get(0) is False
        noes = any(not a for s, a in self.rematch_answers.items()
                   if s not in self.rematch_gone)
        return noes or len(self.rematch_gone) > self.rematch_bots

    @property
    def rematch_waiting(self) -> bool:
        """We said yes and wait for the others' answers (host) or the host's (join)."""
        return self.rematch_open and self.rematch_answered is True and not self.left

    def ask_rematch(self) -> None:
        """r at the end of a match (host or join): play again with the same table."""
        if self.can_rematch:
            self.answer_rematch(True)
            if self.kind == "host":  # the joiners still deciding are told at once
                self._in_trio(lambda c: c.offer_rematch())

    def rematch_news(self) -> list[tuple[str, str]]:
        """The others' answers so far, for the end screen (the events panel, where they
        are narrated, is under its box): ``sami wants a rematch``, ``sami declines a
        rematch``, ``sami left the table: no rematch``.  A bot that leaves without an
        answer is no news (new bots sit at a new table)."""

        if not self.rematch_open:
            return []
        view = self.view  # type: ignore[attr-defined]
        out: list[tuple[str, str]] = []
        if self.kind != "host" and self.rematch_offered and 0 not in self.rematch_answers \
                and self.rematch_answered is None:
            # The host's person wants one and waits for us (until we answer).
            out.append(("class:ok", self.t("ev_host_offers_rematch", name=view.name(0))))
        for seat, accept in sorted(self.rematch_answers.items()):
            if seat == self.state.seat:
                continue
            if seat in self.rematch_gone:
                if self.state.bot(seat) is not None:
                    continue
                out.append(("class:warn", self.t("ev_rematch_gone", name=view.name(seat))))
            elif seat == 0 and self.kind != "host":
                # The host's yes opens the new table at once; its no ends the question:
                # said in the box (the events under it say it too), as the host's word.
                if not accept:
                    few = len(self.state.names) <= 2
                    out.append(("class:warn", self.t(
                        "ev_host_no_rematch" if few else "ev_host_no_rematch_many",
                        name=view.name(0))))
            else:
                out.append(("class:ok" if accept else "class:warn",
                            self.t("ev_rematch_yes" if accept else "ev_rematch_no",
                                   name=view.name(seat))))
        return out

    def rematch_note(self) -> str | None:
        """After the screen, when we said yes and there is no new table: why."""
        if self.rematch_answered is not True or self.rematch_requested:
            return None
        view = self.view  # type: ignore[attr-defined]
        if self.kind == "join":
            host = self.rematch_answers.get(0)
            # At 3 or 4 seats the host's no may be for another's no or absence (walk6:
            # "carol declines a rematch" when the third player had left): its word only.
            no = "rematch_host_no" if len(self.state.names) <= 2 else "rematch_host_no_many"
            return self.t(no if host is False else "rematch_host_silent", name=view.name(0))
        noes = [view.name(s) for s, a in sorted(self.rematch_answers.items())
                if not a and s not in self.rematch_gone]
        # A local bot always leaves without an answer: no news (as rematch_news says).
        gone = [view.name(s) for s in sorted(self.rematch_gone) if self.state.bot(s) is None]
        if not noes and not gone:
            return None
        key = "rematch_no_table" if noes else "rematch_gone"
        return self.t(key, names=", ".join(noes or gone))

    def cancel_trio(self) -> None:
        scope, token = self.cancel_scope, self.token
        if scope is None or token is None:
            self.leave_requested = True  # cancelled as soon as it starts
            return
        with contextlib.suppress(trio.RunFinishedError):
            token.run_sync_soon(scope.cancel)

