"""What the host's and a joiner's trio shells share (PROTOCOL.md 5, 12, 18).

:class:`PeerShell` carries out the effects of a seat's sans-IO core
(:class:`~chkobba_p2p.link.seat.SeatCore`): frames on a connection's queue, events for
the controller, the controller's questions (a play, a cut, the ready check) as tasks, the
core's timer, the log written before anything leaves; and reads a connection's frames
into the core.  :mod:`chkobba_p2p._shell.net` builds the host and the joiner on it,
:mod:`chkobba_p2p._shell.accept` the host's door.
"""

from __future__ import annotations

import contextlib
import logging
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio

from ..deal.core import ProofJob, run_job
from ..game.hand import Move
from ..link import messages as lm
from ..link.events import Notice, NoticeKind, Outcome, SeatController
from ..link.handshake import error_message
from ..link.seat import (
    AskReady,
    CancelAsk,
    Close,
    Decide,
    Effect,
    Emit,
    Finished,
    RunJob,
    SeatCore,
    Send,
    SendBacklog,
)
from ..transcript.clocks import Clocks, SeatClock
from ..transcript.driver import Decision
from ..transcript.session import Session
from ..wire import codec as wire
from ..wire.codec import ErrorCode, Identity, ProtocolError
from ..wire.logfile import (
    LogUnreadable,
    SavedGame,
    TranscriptWriter,
    default_log_path,
    read_log,
)
from .config import Timeouts
from .events import TableEvent
from .stream import Link, LinkClosed, Traffic

__all__ = ["PeerShell", "address", "pinger", "goodbye"]

_log = logging.getLogger("chkobba_p2p._shell.net")


def address(host: str, port: int) -> str:
    """``HOST:PORT``, with an IPv6 address in brackets (PROTOCOL.md section 2)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


async def pinger(link: Link) -> None:
    ping = wire.encode(lm.Ping().to_wire())
    while not link.closed:
        await trio.sleep(link.timeouts.idle / 3)
        link.send(ping)


async def goodbye(links: list[Link], body: bytes) -> None:
    """Write one last frame straight to the sockets, shielded, within a second: the
    peer's tasks are gone (we are cancelled)."""
    data = wire.frame(body)
    with trio.CancelScope(shield=True), trio.move_on_after(1.0):
        for link in links:
            with contextlib.suppress(Exception):
                await link.stream.send_all(data)
                if isinstance(link.stream, trio.abc.HalfCloseableStream):
                    await link.stream.send_eof()


class PeerShell:
    """What host and joiner share: the controller's questions as tasks, the log, the
    effects of the core carried out."""

    core: SeatCore[Link]

    def __init__(self, controller: SeatController, timeouts: Timeouts, identity: Identity,
                 log_path: Path | None) -> None:
        self.controller = controller
        self.timeouts = timeouts
        self.identity = identity
        self.log = TranscriptWriter(log_path or default_log_path())
        self._logged = 0
        self._deciding = False
        self.finished = trio.Event()
        #: Set (and renewed) each time the core's effects were carried out: a shell that
        #: waits on the core's state wakes here.
        self.changed = trio.Event()
        self.nursery: trio.Nursery | None = None
        self.traffic = Traffic()
        self._ask_scope: trio.CancelScope | None = None
        self._timer_scope: trio.CancelScope | None = None
        controller.attach(chat=self.send_chat, resign=self.resign, away=self.step_away)
        #: The player is stepping away: on cancellation, say so instead of leaving.
        self.stepping_away = False
        #: The deal's proof work waiting for the worker (:meth:`_proof_worker`), in the
        #: order the session handed it out; run in a thread unless :attr:`proof_thread`
        #: is off.
        self._jobs: deque[ProofJob] = deque()
        self._job_worker = False
        self.proof_thread = True
        #: The session and hand whose match totals the controller was last told.
        self._told_match: tuple[Session | None, int] | None = None

    # The core's state, read where it lives.
    @property
    def session(self) -> Session | None:
        return self.core.session

    @session.setter
    def session(self, value: Session | None) -> None:
        self.core.session = value

    @property
    def clock(self) -> Clocks | None:
        return self.core.clock

    @property
    def error_code(self) -> str | None:
        return self.core.error_code

    def apply(self) -> None:
        """Carry out what the core decided, in order; the log first, so that every entry
        is written before it leaves."""
        for effect in self.core.take():
            if isinstance(effect, Send | SendBacklog | Finished):
                self.flush_log()
            self._effect(effect)
        self.flush_log()
        self._start_jobs()
        self.changed.set()
        self.changed = trio.Event()
        if self._timer_scope is not None:  # the core may want to be woken sooner
            self._timer_scope.deadline = min(self._timer_scope.deadline,
                                             self.core.next_wake(trio.current_time()))

    def _effect(self, effect: Effect) -> None:
        if isinstance(effect, Send):
            effect.to.send(effect.body)
        elif isinstance(effect, SendBacklog):
            assert self.session is not None
            effect.to.send_backlog(self.session.bodies, effect.start, effect.end)
        elif isinstance(effect, Emit):
            self.emit(effect.event)
        elif isinstance(effect, Close):
            if effect.code is not None:
                effect.to.send_msg(error_message(effect.code, effect.detail))
            effect.to.finish()
            if effect.code is None:  # a replaced connection: closed now, not drained
                self._spawn(effect.to.stream.aclose)
        elif isinstance(effect, Decide):
            if not self._deciding and self._spawn(self._decide, effect):
                self._deciding = True
        elif isinstance(effect, AskReady):
            self._ask(effect)
        elif isinstance(effect, CancelAsk):
            if self._ask_scope is not None:
                self._ask_scope.cancel()
            self._ask_scope = None
        elif isinstance(effect, RunJob):
            self._jobs.append(effect.job)
        elif isinstance(effect, Finished):
            self.finished.set()

    #: The job function (a plain function, never a method: see :meth:`_proof_worker`).
    run_job = staticmethod(run_job)

    def _start_jobs(self) -> None:
        if self._jobs and not self._job_worker and self._spawn(self._proof_worker):
            self._job_worker = True

    async def _proof_worker(self) -> None:
        """Run the deal's proof work, one job at a time in the order handed out (our own
        proof first: the others wait for it), and give each result back to the core.

        Race-free by construction: the thread runs only :func:`~chkobba_p2p.deal.core.
        run_job`, a pure function of the job's immutable inputs (bytes, ints and tuples of
        them, copied out of the deal by the event loop's thread).  It never sees the
        session, the deal or anything else that thread changes; the result comes back
        here, in the event loop's thread, and only then touches the session
        (``core.job_done``), between two messages like any other input.  The session's
        own rules keep the order safe meanwhile: our turn waits for our proof, and no
        share of ours leaves before every proof of the instance verified here."""
        try:
            while self._jobs:
                job = self._jobs.popleft()
                if self.proof_thread:
                    result = await trio.to_thread.run_sync(self.run_job, job,
                                                           abandon_on_cancel=True)
                else:
                    await trio.lowlevel.checkpoint()
                    result = self.run_job(job)
                self.core.job_done(job, result, trio.current_time())
                self.apply()
        finally:
            self._job_worker = False

    def _spawn(self, fn: Callable[..., object], *args: object) -> bool:
        if self.nursery is None:
            return False
        try:
            self.nursery.start_soon(fn, *args)  # type: ignore[arg-type]
        except RuntimeError:  # the nursery is closed: we are winding down
            return False
        return True

    def _tell_match(self, d: Decision) -> None:
        """Tell the controller the match totals and the target before its first choice
        of each hand (:meth:`SeatController.see_match`), from our session's own match
        state (the decision carries it); once per hand of each session, so a resumed or
        a new game is told again."""
        told = (self.session, d.number)
        if self._told_match is not None and self._told_match[0] is told[0] \
                and self._told_match[1] == told[1]:
            return
        self._told_match = told
        see = getattr(self.controller, "see_match", None)  # a controller of its own may lack it
        if see is None:
            return
        try:
            see(d.totals, d.target)
        except Exception:  # the bot plays for the margin then; the game goes on
            _log.exception("controller see_match failed")

    async def _decide(self, effect: Decide) -> None:
        d = effect.decision
        self._tell_match(d)
        try:
            choice: Move | bool
            if d.kind == "play":
                choice = await self.controller.choose_play(d.hand)
            else:
                choice = await self.controller.choose_cut(d.hand)
            self.core.decide(d, choice, trio.current_time())
        finally:
            self._deciding = False
        self.apply()

    def _ask(self, effect: AskReady) -> None:
        if self._ask_scope is not None:
            self._ask_scope.cancel()
        scope = self._ask_scope = trio.CancelScope()
        lobby = effect.lobby

        async def ask() -> None:
            with scope:
                await self.controller.ready_to_start(lobby)
                self.confirmed(lobby.seating)

        self._spawn(ask)

    async def _timer(self) -> None:
        """Wake the core when it asks (its clocks, countdowns, pending news), until the
        peer's tasks are cancelled: news of spectators pending when the game ends still
        arrives while the connections are open (the core's clocks stop at the end)."""
        while True:
            with trio.move_on_at(self.core.next_wake(trio.current_time())) as scope:
                self._timer_scope = scope
                await trio.sleep_forever()
            self._timer_scope = None
            self.core.tick(trio.current_time())
            self.apply()

    def confirmed(self, seating: int) -> None:
        """This seat's person confirmed ``seating`` (the ready check)."""
        raise NotImplementedError

    def send_chat(self, text: str) -> bool:
        """Send a chat line (see :meth:`SeatController.send_chat`)."""
        sent = self.core.chat(text, trio.current_time())
        self.apply()
        return sent

    def emit(self, event: TableEvent) -> None:
        try:
            self.controller.on_event(event)
        except Exception:  # a display bug must not break the game
            # Not reported through the controller that just failed: logged.
            _log.exception("controller on_event failed on %r", event)

    def flush_log(self) -> None:
        s = self.session
        if s is None:
            return
        while self._logged < len(s.bodies):
            self.log.append(s.bodies[self._logged])
            self._logged += 1

    def pump(self) -> None:
        self.core.pump(trio.current_time())
        self.apply()

    def send_entry(self, body: bytes) -> None:
        """Send a signed entry where this seat's entries go (e.g. what :meth:`leave`
        returned)."""
        self.core.send_entry(body)
        self.apply()

    def catching_up(self) -> bool:
        return self.core.catching_up()

    def clocks(self) -> tuple[SeatClock, ...]:
        """Every seat's clocks now (empty before the game starts).  See
        :class:`~chkobba_p2p.transcript.clocks.SeatClock`: ``owes`` and ``move_left`` give the
        player on the floor's countdown, ``connected`` and ``allowance_left`` a dropped
        player's ("amel stepped away: 4:32 left")."""
        return self.core.clocks(trio.current_time())

    def leave(self, detail: str = "the player left") -> bytes | None:
        """Leave the running game on purpose: a signed ``abort`` (``peer_left``, blaming
        this seat), logged and reported; returns its frame body for the caller to send
        (None when no game is running)."""
        body = self.core.leave(detail)
        self.apply()
        return body

    def resign(self) -> bool:
        """Resign the running match (see :meth:`SeatController.resign`)."""
        done = self.core.resign()
        self.apply()
        return done

    def step_away(self) -> bool:
        """Mark this seat as stepping away (see :meth:`SeatController.step_away`)."""
        s = self.session
        if s is None or s.finished:
            return False
        self.stepping_away = True
        return True

    #: The unsigned message that says this seat steps away (PROTOCOL.md 17).
    away_message: dict[str, Any] = lm.Away().to_wire()

    async def _on_cancel(self, links: list[Link]) -> None:
        """We are cancelled (Ctrl-C) during a game: after :meth:`step_away`, tell the
        others we step away, nothing signed (we come back with a resume); otherwise, if
        configured to, leave with a signed record."""
        if self.stepping_away:
            await goodbye(links, wire.encode(self.away_message))
        elif self._leave_on_cancel:
            # The player chose to leave (q, or Ctrl-C): said as such, not "interrupted".
            body = self.leave("the player left the game")
            if body is None:
                return
            await goodbye(links, body)
        else:
            return
        self.log.close()

    _leave_on_cancel = True

    async def reads(self, link: Link, handle: Callable[[bytes, lm.Frame], bool],
                    failing: Callable[[], None] | None = None) -> LinkClosed | None:
        """A connection's read loop (the host's door runs one per seat and spectator,
        :class:`~chkobba_p2p._shell.accept.Door`).  Give ``link``'s frames to ``handle``
        (then carry out what the core decided) until it returns False (its error is
        queued: the link drains) or the link ends (returned).  A timeout or bad input is
        answered with its error.  Before any drain (up to a second, and the other end may
        never close its side): ``failing()``, so that a seat or place the link held is
        free at once, not a second later."""
        while True:
            try:
                body, msg = await link.receive()
            except trio.TooSlowError:
                if failing is not None:
                    failing()
                await link.fail(ErrorCode.TIMEOUT, "frame or idle timeout")
                return None
            except ProtocolError as exc:
                if failing is not None:
                    failing()
                await link.fail(exc.error_code, exc.detail)
                return None
            except LinkClosed as exc:
                return exc
            going_on = handle(body, msg)
            self.apply()
            if not going_on:
                if failing is not None:
                    failing()
                await link.drain(1.0, discard=True)
                return None

    def _restore(self, state: Path | None, accept: Callable[[SavedGame], bool],
                 host_key: bytes | None = None, finished: bool = True
                 ) -> tuple[SavedGame, Session] | None:
        """After a crash: the game rebuilt from its log and saved secrets (None: no save
        of ours, or an unusable one, said as a notice, or ``finished`` and it is over).
        ``host_key``: the host's (default: the log's genesis says).  A replay that
        finds another seat at fault gives a session that is over but owes its abort
        (:attr:`Session.owes_abort`): the caller reconnects and sends it, as a live
        peer would have (PROTOCOL.md 13)."""
        saved = SavedGame.load(state) if state is not None and state.exists() else None
        if saved is None or not accept(saved):
            return None
        try:
            log = read_log(saved.log)
            if log.tail is not None and not log.truncated:
                raise LogUnreadable(f"{saved.log}: {log.tail}", code="log_bad_frame",
                                    data={"path": str(saved.log)})
            if host_key is None:
                first = wire.open_entry(log.bodies[0])
                host_key = wire.decode(first.payload, want_map=False)["seats"][0]["key"]
            session = Session.resume(self.identity, list(log.bodies), host_key,
                                     saved.master)
        except Exception as exc:  # an unusable save: a new table, or join afresh
            self.emit(Notice(NoticeKind.RESUME_FAILED, str(exc) or type(exc).__name__,
                             path=Path(saved.log)))
            return None
        if session.finished and not finished and not session.owes_abort:
            return None
        self.log = TranscriptWriter(saved.log, resume_at=log.valid_length)
        # What the log holds; an abort the replay signed (a check that refused another
        # seat's entry, our verdict cut off by the crash) is written before it leaves.
        self._logged = len(log.bodies)
        return saved, session

    async def _after_match(self) -> bool | None:
        """The match is over: the controller's answer to playing again (None: none), while
        the connections are still open (PROTOCOL.md 17)."""
        s = self.session
        if s is None or not s.finished or self.catching_up():
            return None
        try:
            answer = await self.controller.after_match(self.outcome())
        except Exception:  # a display bug must not break the end of the game
            _log.exception("controller after_match failed")
            return None
        return answer if isinstance(answer, bool) else None

    def outcome(self) -> Outcome:
        return self.core.outcome(self.log.path, self.traffic.sent, self.traffic.received)

