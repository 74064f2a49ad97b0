"""The shuffle proofs an observer checks, after the fact and in parallel: a pool of
worker processes (:class:`ProofChecks`) that the observer hands each deck's proofs once
its seeds are open (:mod:`chkobba_p2p.observe.observer`)."""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
from collections.abc import Sequence
from dataclasses import dataclass

from ..deal import shuffle_proof
from ..deal.shuffle_proof import Ciphertext

__all__ = [
    "MAX_DEFAULT_WORKERS",
    "default_workers",
    "ProofArgs",
    "Failure",
    "check_shuffle_proof",
    "ProofTask",
    "ProofChecks",
]



#: Most worker processes :func:`default_workers` gives.
MAX_DEFAULT_WORKERS = 4
# The shuffle proofs of a deck go to the workers one task each, once the deck's seeds
# are open (ProofChecks.open): the decks and witness pickle in well under a millisecond,
# and single tasks let this process take back the last ones at the end.  They cannot be
# summed into one random-weight check: each is a Fiat-Shamir challenge over commitments
# the verifier must recompute one by one (docs/deal.md, "Auditing a hand's shuffle
# proofs"); what a hand's opened seeds allow is shuffle_proof.verify_shuffle's ``opened``.


def default_workers() -> int:
    """Worker processes for the shuffle proofs: one per core beyond the observer's own
    (the observer replays everything else meanwhile), at most
    :data:`MAX_DEFAULT_WORKERS`; none on one core."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(0, min(MAX_DEFAULT_WORKERS, (cores or 1) - 1))


#: One shuffle proof to check: context, joint key, the deck before and after, the proof.
ProofArgs = tuple[bytes, bytes, list[Ciphertext], list[Ciphertext], bytes]
Failure = tuple[str, str] | None


def check_shuffle_proof(context: bytes, joint: bytes, inp: list[Ciphertext],
                         out: list[Ciphertext], proof: bytes,
                         opened: shuffle_proof.Opened | None = None) -> Failure:
    """One shuffle proof (maybe in a worker process): None, or (code, sentence)."""
    try:
        shuffle_proof.verify_shuffle(context, joint, inp, out, proof, opened=opened)
    except shuffle_proof.ShuffleProofError as exc:
        return exc.code, str(exc)
    return None


@dataclass
class ProofTask:
    entry: int
    seat: int
    args: ProofArgs
    opened: shuffle_proof.Opened | None = None
    future: concurrent.futures.Future[Failure] | None = None
    done: bool = False
    result: Failure = None

    def run_here(self) -> None:
        self.result, self.done = check_shuffle_proof(*self.args, opened=self.opened), True


class ProofChecks:
    """The shuffle proofs, checked after the fact: the observer goes on as if each proof
    held; :meth:`first_failure` then says whether one did not, and the earliest such
    entry is the first violation (the verdict is the serial one's).

    Once a deck's seeds are open and every step of the deck is recomputed from them
    (:meth:`open`), the witness makes a proof's check cheaper
    (:class:`~chkobba_p2p.deal.shuffle_proof.Opened`).  A proof waits for that, with or without
    workers: without, this process checks each deck's as it opens; with ``workers``,
    worker processes take each deck's proofs, with the witness, as it opens while the
    observer replays the next hands, and this process takes the last ones back at the
    end.  (Handing a worker a proof as soon as it comes would cost a full check, about
    two thirds more CPU, to finish a few hands earlier: a log's audit is a batch job.)
    A deck whose seeds never all open (a game that stopped) has its proofs checked in
    full at the end."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: concurrent.futures.Executor | None = None
        self._tasks: list[ProofTask] = []

    def submit(self, entry: int, seat: int, args: ProofArgs) -> int:
        """A proof to check; returns its handle.  It waits for :meth:`open` (or the end)."""
        self._tasks.append(ProofTask(entry, seat, args))
        return len(self._tasks) - 1

    def context_of(self, handle: int) -> bytes:
        """The context proof ``handle`` is checked under."""
        return self._tasks[handle].args[0]

    def open(self, handles: Sequence[int], opened: Sequence[shuffle_proof.Opened]) -> None:
        """The deck of these proofs has every seed open and every step recomputed:
        ``opened[k]`` is the witness of proof ``handles[k]``; check them now with it."""
        for h, o in zip(handles, opened, strict=True):
            task = self._tasks[h]
            if task.done or task.future is not None:
                continue
            task.opened = o
            self._dispatch(task)

    def _dispatch(self, task: ProofTask) -> None:
        if task.done or task.future is not None:
            return
        if self.workers < 1:
            task.run_here()
            return
        if self._pool is None:
            # Processes, not threads: libsodium's calls release the GIL, but each returns
            # to Python within ~50 us and must then wait for this thread, busy replaying,
            # to let go of it (a thread measured slower than no worker at all).  Forked:
            # the child has every module already (gc.freeze() before the fork measured
            # no cheaper).
            ctx = multiprocessing.get_context("fork") \
                if "fork" in multiprocessing.get_all_start_methods() else None
            self._pool = concurrent.futures.ProcessPoolExecutor(self.workers, mp_context=ctx)
        try:
            task.future = self._pool.submit(check_shuffle_proof, *task.args,
                                            opened=task.opened)
        except (concurrent.futures.BrokenExecutor, RuntimeError):
            # A worker died (killed, out of memory) and broke the pool: this process
            # checks this proof and the ones after it itself; the verdict is the same.
            self.workers = 0
            task.run_here()

    def first_failure(self) -> tuple[int, int, str] | None:
        """``(entry, seat, reason)`` of the earliest refused proof, or None."""
        try:
            for task in self._tasks:
                self._dispatch(task)  # the proofs of decks never opened: full checks
            for task in reversed(self._tasks):  # this process takes back the last ones
                if task.done:
                    continue
                if task.future is not None and not task.future.cancel():
                    break  # a worker has it: the ones before too
                task.run_here()
            for task in self._tasks:
                if not task.done:
                    assert task.future is not None
                    try:
                        task.result, task.done = task.future.result(), True
                    except Exception:  # noqa: BLE001 - a worker died: check it here instead
                        task.run_here()
                if task.result is not None:
                    code, why = task.result
                    return task.entry, task.seat, f"{code}: shuffle proof refused: {why}"
            return None
        finally:
            self.close()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
