"""Running the client: the prompt_toolkit application on asyncio, the peer on trio in
guest mode on the same loop.

Threads never enter into it: trio runs as a guest of asyncio's loop
(``trio.lowlevel.start_guest_run``), so the seat controller's ``on_event`` (called from
trio) updates the picture directly, and key handlers (asyncio) answer the controller's
questions through the trio token.  Ctrl-C, SIGINT, SIGTERM and SIGHUP all ask trio to
cancel the game, so its cleanup runs, the log stays on disk and the connections close
(at a table with people, as a step-away: the others are told and the game waits).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import outcome as outcome_mod
import trio

from chkobba_p2p import Lobby, Outcome, SeatController
from chkobba_p2p.errors import LocalError
from chkobba_p2p.game import rules as R

from ..support.term import stderr_held
from ..words.i18n import local_error_text
from .app import TuiApp

__all__ = ["RunResult", "TuiSeat", "run_app"]


@dataclass
class RunResult:
    """How a run of the client ended: the peer's outcome (None if the game never ran),
    whether the user left, and a crash's traceback if the game task failed."""

    outcome: Outcome | None
    left: bool
    timed_out: bool = False
    crash: str | None = None
    #: The player left by stepping away (the game waits; the same command comes back).
    stepped_away: bool = False
    #: The player asked for a rematch at the end of the match.
    rematch: bool = False
    #: The library refused what this machine asked of it (a LocalError: a key file, a
    #: port, tor): its one line, instead of a crash's traceback.
    error: str | None = None


class TuiSeat(SeatController):
    """The seat controller behind the screen: questions go to the UI, events to the
    picture."""

    def __init__(self, ui: TuiApp) -> None:
        self.ui = ui
        ui.controller = self  # chat lines go out through it (SeatController.send_chat)

    def on_event(self, event: object) -> None:
        self.ui.on_event(event)

    async def choose_play(self, hand: R.Hand) -> R.Move:
        return await self.ui.ask("play", hand)

    async def choose_cut(self, hand: R.Hand) -> bool:
        return await self.ui.ask("cut", hand)

    async def after_match(self, outcome: Outcome) -> bool | None:
        return await self.ui.decide_rematch(outcome)  # r or q on the end screen

    async def ready_to_start(self, lobby: Lobby) -> None:
        if self.ui.kind != "play":  # alone with bots, there is nobody to check
            await self.ui.ask_ready()  # Enter, once the fingerprints are checked


async def _run_async(ui: TuiApp, game: Callable[[SeatController], Awaitable[Outcome]],
                     connect_timeout: float | None) -> RunResult:
    loop = asyncio.get_running_loop()
    done: asyncio.Future = loop.create_future()
    timed_out = False

    # Our own handlers first: trio then leaves SIGINT alone (no KeyboardInterrupt thrown
    # into asyncio's frames), and every way of stopping goes through trio's cancellation.
    installed = []
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, ui.leave_now)
            installed.append(sig)

    async def trio_main() -> Outcome | None:
        nonlocal timed_out
        ui.token = trio.lowlevel.current_trio_token()
        with trio.CancelScope() as scope:
            ui.cancel_scope = scope
            if ui.leave_requested:
                scope.cancel()
            async with trio.open_nursery() as nursery:
                if connect_timeout is not None:
                    async def watchdog() -> None:
                        nonlocal timed_out
                        await trio.sleep(connect_timeout)
                        if not ui.connected:
                            timed_out = True
                            scope.cancel()
                    nursery.start_soon(watchdog)
                nursery.start_soon(ui.pacer.run)
                result = await game(TuiSeat(ui))
                # The picture catches up (the last moves, the last scoring) before the
                # end of the match shows.
                await ui.pacer.drained()
                nursery.cancel_scope.cancel()
                return result
        return None

    def on_done(result: outcome_mod.Outcome) -> None:
        if not done.done():
            done.set_result(result)
        value = result.value if isinstance(result, outcome_mod.Value) else None
        ui.on_trio_done(value)

    trio.lowlevel.start_guest_run(
        trio_main,
        run_sync_soon_threadsafe=loop.call_soon_threadsafe,
        run_sync_soon_not_threadsafe=loop.call_soon,
        done_callback=on_done,
        host_uses_signal_set_wakeup_fd=True,
    )
    try:
        await ui.app.run_async(pre_run=ui.pre_run, handle_sigint=False)
    finally:
        if not done.done():
            ui.cancel_trio()
        result = await done
        for sig in installed:
            loop.remove_signal_handler(sig)
    crash = error = None
    value = None
    if isinstance(result, outcome_mod.Error):
        err = result.error
        local = _local_error(err)
        if local is not None:  # by its code where it has one, in the screen's language
            error = local_error_text(ui.t, local)
        elif not isinstance(err, (KeyboardInterrupt, trio.Cancelled)):
            crash = "".join(traceback.format_exception(err))
    else:
        value = result.value
    if value is None and crash is None and error is None:
        # The player quit the end screen while the peer was winding down (its bots, its
        # connections): the match had ended, with the outcome the end screen showed.
        value = ui.outcome
    return RunResult(value, ui.left, timed_out, crash, stepped_away=ui.stepping_away,
                     rematch=ui.rematch_requested, error=error)


def _local_error(err: BaseException) -> LocalError | None:
    """The library's refusal in ``err`` (itself, or the first inside trio's groups)."""
    if isinstance(err, LocalError):
        return err
    if isinstance(err, BaseExceptionGroup):
        local, _ = err.split(LocalError)
        while isinstance(local, BaseExceptionGroup):
            local = local.exceptions[0]  # type: ignore[assignment]
        return local
    return None


def run_app(ui: TuiApp, game: Callable[[SeatController], Awaitable[Outcome]],
            connect_timeout: float | None = None) -> RunResult:
    """Run the screen and the game until both are over (stderr held meanwhile:
    :func:`..support.term.stderr_held`)."""
    with stderr_held():
        return asyncio.run(_run_async(ui, game, connect_timeout))
