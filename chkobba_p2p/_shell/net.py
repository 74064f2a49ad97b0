"""The trio shell of the link: a joiner (PROTOCOL.md 2, 5, 12, 17, 18).

The decisions live in the sans-IO core, :mod:`chkobba_p2p.link` (a joiner's link,
:class:`~chkobba_p2p.link.joiner.SeatLink`).  The host's shell,
:class:`~chkobba_p2p._shell.hostpeer.HostPeer` (named here too, imported on first use),
listens, resumes its table from its log, announces it on the LAN and closes it at the
match's end: apart, so that a joiner does not import the host's modules.
:class:`ClientPeer` connects, carries the handshake's bytes within its deadline (its order
is the core's) and reconnects.  Both build on
:class:`~chkobba_p2p._shell.shell.PeerShell` (the core's effects carried out: frames, events,
the controller's questions as tasks, the log written before anything leaves); the host's
connections come through its :class:`~chkobba_p2p._shell.accept.Door`.  Connections come from a
:class:`~chkobba_p2p._shell.transport.Transport` (TCP by default).
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import math
from pathlib import Path
from typing import TYPE_CHECKING

import trio

from ..address import Address, parse_secret
from ..link import messages as lm
from ..link.events import (
    Notice,
    NoticeKind,
    Outcome,
    Restored,
    SeatController,
)
from ..link.joiner import (
    RETRY_FIRST,
    Committed,
    HandshakeStep,
    SeatLink,
    lobby_event,
    pinned_fingerprint,
)
from ..link.seat import ChatBucket, Effect
from ..transcript.caps import SPOKEN
from ..transcript.clocks import Limits
from ..wire import codec as wire
from ..wire.codec import Identity, ProtocolError
from ..wire.logfile import SavedGame
from .config import JoinConfig
from .shell import PeerShell, pinger
from .shell import address as _address
from .stream import Link, LinkClosed, Traffic
from .transport import ListenError, check_listen, nobody_listening

if TYPE_CHECKING:
    from .hostpeer import HostPeer, listen

__all__ = ["Link", "LinkClosed", "Traffic", "HostPeer", "ClientPeer", "ChatBucket", "listen",
           "ListenError", "check_listen", "lobby_event"]

#: Seconds a joining peer that accepted a rematch keeps its connection open for the
#: host's own answer (PROTOCOL.md 17): the host's person may still be deciding.
REMATCH_ANSWER_WAIT = 300.0
_log = logging.getLogger("chkobba_p2p._shell.net")


def __getattr__(name: str) -> object:
    """The host's shell, :class:`~chkobba_p2p._shell.hostpeer.HostPeer` (and ``listen``),
    lives apart so that a joiner does not import it; named here as before, imported on
    first use."""
    if name in ("HostPeer", "listen"):
        from . import hostpeer

        return getattr(hostpeer, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class ClientPeer(PeerShell):
    """A joining seat: connects to the host, checks everything it relays, reconnects."""

    core: SeatLink[Link]
    #: The link's core (a test's hostile joiner is a subclass of it).
    link_class: type[SeatLink[Link]] = SeatLink

    def __init__(self, config: JoinConfig, controller: SeatController) -> None:
        super().__init__(controller, config.timeouts, config.identity or Identity.generate(),
                         config.log_path)
        self.config = config
        self._leave_on_cancel = config.leave_on_cancel
        address = Address.parse(config.address)
        pinned = pinned_fingerprint(address.fingerprint, config.host_fingerprint)
        #: The fingerprint the host's key must have (a join code's), or None.
        self.pinned = pinned
        self.host, self.port = address.host, address.port
        self.transport = config.transport
        self.core = self.link_class(self.identity, _address(self.host, self.port), pinned,
                             Limits(move=self.timeouts.turn,
                                    allowance=self.timeouts.reconnect),
                             announce=self.timeouts.announce,
                             handshake=self.timeouts.handshake, idle=self.timeouts.idle,
                             connect_retry=max(config.connect_retry,
                                               self.transport.connect_patience))
        self.core.secret = parse_secret(config.secret) if config.secret is not None \
            else address.secret
        self.core.bot = config.bot
        self.core.claims_host_gone = config.claims_host_gone
        self.core.defer_work = True  # the proof work runs in our worker (PeerShell)
        self.core.hold_bound = controller.answers_within  # a bot: its messages wait for it
        self.proof_thread = config.proof_thread
        self._last_link: Link | None = None  # kept after a drop, for a leave on Ctrl-C
        self._stream: trio.abc.Stream | None = None  # the last connection's
        #: Where the pinned key's endpoint is remembered once it proved itself (None:
        #: nowhere, or done).
        self._answered = config.answered
        self.saved: SavedGame | None = None
        self._try_resume()

    link = property(lambda self: self.core.host)
    host_key = property(lambda self: self.core.host_key)
    host_limits = property(lambda self: self.core.host_limits)
    resumed_entries = property(lambda self: self.core.resumed_entries)

    def stalled_host_limit(self) -> float:
        return self.core.stalled_host_limit()

    def _try_resume(self) -> None:
        where = _address(self.host, self.port)
        fresh_log = self.log
        restored = self._restore(self.config.state_path, lambda saved: saved.host == where)
        if restored is not None and restored[1].finished and not restored[1].owes_abort \
                and self.config.state_path:
            # The log already ends (a crash after the end, before the save was removed):
            # the save is done with, and never stands in the way of this join, which
            # goes on afresh (PROTOCOL.md 13.1); the person is told where the end is.
            with contextlib.suppress(OSError):
                self.config.state_path.unlink()
            self.log.close()
            self.log, self._logged = fresh_log, 0
            self.emit(Notice(NoticeKind.SAVED_GAME_OVER, path=Path(restored[0].log)))
            restored = None
        if restored is not None:
            self.saved, session = restored
            self.core.resumed(session, session.table.seats[0].key)
            if self.core.secret is None and self.saved.seat_secret is not None:
                # Back without the whole code: the secret our seat was taken with.
                with contextlib.suppress(ValueError):
                    self.core.secret = parse_secret(self.saved.seat_secret)
            if self.saved.limits is not None:
                # The table's clocks, as its host announced them, until it speaks again:
                # never this peer's own defaults (PROTOCOL.md 12.3).
                self.core.host_limits = Limits(*map(float, self.saved.limits))

    def _effect(self, effect: Effect) -> None:
        if isinstance(effect, Committed):
            self._commit()
        else:
            super()._effect(effect)

    def _commit(self) -> None:
        """Our seat's part starts: the log's header, the saved game (for a crash resume)."""
        s = self.session
        assert s is not None
        where = _address(self.host, self.port)
        seated = {x.key for x in s.table.seats}
        self.log.write_header(game=s.table.game, seat=s.own_seat, key=self.identity.public,
                              name=self.config.name, host=where,
                              bots={k: v for k, v in self.core.vouched.items()
                                    if k in seated})
        if self.config.state_path is not None and not s.finished:
            limits = self.core.host_limits
            SavedGame(s.table.game, s.own_seat, where, s.master, str(self.log.path),
                      None if limits is None else (math.ceil(limits.move),
                                                   math.ceil(limits.allowance)),
                      self.core.secret).save(self.config.state_path)

    def flush_log(self) -> None:
        if self.core.catching_up():
            if not self.core.finished:
                return  # nothing is ours to write before the host's chain is in
            self.core.committed = True  # an abort while catching up: the log holds it
            self._commit()
        super().flush_log()

    def confirmed(self, seating: int) -> None:
        self.core.confirmed(seating)
        self.apply()

    async def run(self) -> Outcome:
        try:
            return await self._run_client()
        except BaseException:  # cancelled (Ctrl-C), possibly inside an exception group
            if self._last_link is not None and self.session is not None:
                await self._on_cancel([self._last_link])
            elif self._stream is not None:  # no game: nothing to say, the seat is free
                with trio.CancelScope(shield=True):
                    await trio.aclose_forcefully(self._stream)
            raise

    async def _run_client(self) -> Outcome:
        if self.session is not None:  # resumed from the log: the picture first
            s = self.session
            self.emit(Restored(s.table, s.own_seat, s.replayed))
            if s.finished and not s.owes_abort:
                # The log already ends (and there is no save to remove).  (An abort the
                # replay signed goes to the host first: the connection below.)
                self.core.stop(None, "already_over")
                self.apply()
        async with trio.open_nursery() as nursery:
            self.nursery = nursery
            nursery.start_soon(self._connect_loop)
            nursery.start_soon(self._timer)
            await self.finished.wait()
            answer = await self._after_match() if self.core.ever_connected else None
            link = self.link
            sent = self.core.answer_rematch(answer)
            self.apply()
            if link is not None and answer and sent:
                # Accepted: the host's answer (a new table, or none) comes before it
                # closes the connection, once its person decided.  Our side stays open
                # meanwhile: the host reads an end of stream as a seat gone.
                with trio.move_on_after(REMATCH_ANSWER_WAIT):
                    await link.eof.wait()
            if link is not None:
                await link.drain()
            nursery.cancel_scope.cancel()
        self.log.close()
        if self.session is not None and self.session.finished and self.config.state_path:
            with contextlib.suppress(OSError):
                self.config.state_path.unlink()
        elif self.core.game_unknown and self.config.state_path is not None:
            filed = SavedGame.file_aside(self.config.state_path)
            if filed is not None:
                self.core.error_data["filed"] = str(filed)
        return self.outcome()

    async def _connect_loop(self) -> None:
        core = self.core
        while not self.finished.is_set():
            try:
                stream = await self.transport.connect(self.host, self.port)
            except OSError as exc:
                stop = core.connect_failed(str(exc), nobody_listening(exc), trio.current_time())
                self.apply()
                if stop:
                    return
                if stop is False:  # within the first connect_retry seconds: again soon
                    await trio.sleep(RETRY_FIRST)
                    continue
            else:
                fatal = await self._connected(stream)
                self.apply()
                if fatal or self.finished.is_set():
                    self.finished.set()
                    return
            stop = core.unreachable(trio.current_time())
            self.apply()
            if stop:
                return
            await trio.sleep(core.retry_delay())

    async def _connected(self, stream: trio.abc.Stream) -> bool:
        """Run one connection.  True: a fatal refusal (stop); False: reconnect.  The
        handshake's order is the core's (:meth:`SeatLink.receive_handshake`): here, its
        bytes and its deadline."""
        self._stream = stream
        core = self.core
        link = Link(stream, self.timeouts, self.traffic)
        for msg in core.connect(self.config.name, SPOKEN):
            link.send_msg(msg)  # a knock: our seat's key, proven from the first frame (5.4)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(link.writer)
            step = HandshakeStep()
            try:
                with trio.fail_after(self.timeouts.handshake):
                    while core.handshaking and step.over is None:
                        try:
                            body, frame = await link.receive()
                        except LinkClosed as exc:
                            step = core.host_closed(exc.error)
                        except ProtocolError as exc:
                            step = core.handshake_broken(exc)
                        else:
                            step = core.receive_handshake(link, body, frame,
                                                          trio.current_time())
                        for msg in step.send:
                            link.send_msg(msg)
            except trio.TooSlowError:
                step = core.handshake_broken(None)
            if step.over is not None:
                if step.fail is not None:
                    await link.fail(step.fail)
                else:
                    link.finish()
                nursery.cancel_scope.cancel()
                return step.over
            self._last_link = link
            self._remember_answered()
            self.apply()
            nursery.start_soon(pinger, link)
            if self.session is None:
                # Also after a welcome with have > 0: its chain starts with the genesis,
                # which counts as the table (a host that says so and sends nothing is
                # not waited for forever).
                nursery.start_soon(self._await_table)
            try:
                await self._read_loop(link)
            finally:
                core.lost()
                link.finish()
                nursery.cancel_scope.cancel()
        return False

    def _remember_answered(self) -> None:
        """The handshake is over: the host's welcome proved the pinned key here (signed
        over our own nonce; a greeting or a refusal alone proves nothing, anyone can
        replay the one and write the other).  Remembered now, once a run, so that a
        join cut short (Ctrl-C in the lobby) still counts."""
        answered, self._answered = self._answered, None
        if answered is None or self.pinned is None or self.core.host_key is None \
                or wire.fingerprint(self.core.host_key) != self.pinned:
            return
        with contextlib.suppress(ValueError):  # a name or an onion: not a LAN endpoint
            ipaddress.ip_address(self.host.partition("%")[0])
            answered.remember(self.pinned, self.host, self.port)

    async def _await_table(self) -> None:
        """An honest host sends its lobby right after its welcome (PROTOCOL.md 5)."""
        await trio.sleep(self.timeouts.handshake)
        self.core.no_table()
        self.apply()

    async def _read_loop(self, link: Link) -> None:
        def handle(body: bytes, msg: lm.Frame) -> bool:
            try:
                self.core.message(link, msg, trio.current_time())
            except Exception as exc:  # noqa: BLE001 - nothing from the network may kill us
                _log.warning("ignored a message from the host that could not be "
                             "handled: %r", exc)
            return True

        closed = await self.reads(link, handle)
        if closed is not None:
            self.core.closed_in_lobby(closed.error)
            self.apply()
