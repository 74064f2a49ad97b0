"""``chkobba replay`` on every core (issue 29): shuffle proofs wait for their deck's seeds
and are checked with them (in this process, or by worker processes, by default on a
machine of two cores or more), with the very verdict and blame of the audit that checks
each proof in full as it comes, as a seat does."""

from __future__ import annotations

import contextlib
import os

import pytest
from support.audit import play
from support.tiers import slow_when
from test_audit import change_item, deal_cheats
from test_shuffle_proof_opened import chain, context

from chkobba_p2p.deal import shuffle_proof
from chkobba_p2p.observe import proofs
from chkobba_p2p.observe.audit import INVALID, VALID, audit_log, default_workers

SAME = ("verdict", "code", "blamed", "entry", "reason", "records", "aborts", "warnings")


def _same_as_serial(path):
    serial = audit_log(path, workers=0, batch=False)  # each proof in full, as it comes
    for workers, batch in ((0, True), (None, True), (1, True), (2, True), (1, False)):
        report = audit_log(path, workers=workers, batch=batch)
        for attr in SAME:
            assert getattr(report, attr) == getattr(serial, attr), (workers, batch, attr)
    return serial


@pytest.mark.slow
def test_an_honest_log_with_proofs_is_valid_on_every_core(tmp_path):
    played = play(2, proofs=True, seed=21, key=b"workers-honest")
    report = _same_as_serial(played.write_log(tmp_path / "honest.chklog"))
    assert report.verdict == VALID and len(report.records) > 1


@pytest.mark.parametrize("code,in_process", slow_when(lambda case: not case[1], [
    ("bad_shuffle_proof", False),  # found by a worker
    ("duplicate_ciphertext", True),  # found by the audit's own process, proofs in workers
]))
def test_a_cheating_log_gets_the_same_verdict_and_blame_on_every_core(code, in_process,
                                                                      tmp_path):
    hook, _ = deal_cheats()[code]
    played = play(2, proofs=True, cheater=1, hook=hook, seed=22,
                  key=f"workers-cheat-{code}".encode())
    report = _same_as_serial(played.write_log(tmp_path / "cheat.chklog", seat=0))
    assert (report.verdict, report.code, report.blamed) == (INVALID, "deal_failure", 1)
    assert report.reason.startswith(code + ":")


@pytest.mark.parametrize("cores,workers", [(1, 0), (2, 1), (3, 2), (16, 4)])
def test_the_default_is_one_worker_per_core_beyond_the_first(monkeypatch, cores, workers):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cores)), raising=False)
    assert default_workers() == workers
    assert workers <= proofs.MAX_DEFAULT_WORKERS


def _hand_of_proofs():
    pk, decks, proofs, opened = chain(4, 4)
    return [(context(k), pk, decks[k], decks[k + 1], proofs[k]) for k in range(4)], opened


def test_without_workers_proofs_wait_for_their_decks_seeds_and_get_the_witness():
    args, opened = _hand_of_proofs()
    checks = proofs.ProofChecks(0)
    handles = [checks.submit(k, k, a) for k, a in enumerate(args)]
    assert not any(t.done for t in checks._tasks)  # held until the seeds open
    checks.open(handles[:2], opened[:2])
    assert [t.done for t in checks._tasks] == [True, True, False, False]
    assert [t.opened for t in checks._tasks[:2]] == opened[:2]
    assert checks.first_failure() is None
    assert all(t.done and t.opened is None for t in checks._tasks[2:])  # full checks


@pytest.mark.slow
def test_with_workers_proofs_wait_for_the_witness_then_go_to_the_workers():
    """A worker never does a full check a witness would have made cheaper: proofs wait
    for their deck's seeds, go out with the witness, and those of a deck never opened
    go out in full at the end."""
    args, opened = _hand_of_proofs()
    checks = proofs.ProofChecks(1)
    try:
        handles = [checks.submit(k, k, a) for k, a in enumerate(args)]
        assert all(t.future is None and not t.done for t in checks._tasks)
        checks.open(handles[:3], opened[:3])
        assert all(t.opened is not None and t.future is not None for t in checks._tasks[:3])
        assert checks._tasks[3].future is None and checks._tasks[3].opened is None
        checks.open(handles[:1], opened[:1])  # a second open of a deck changes nothing
        assert checks.first_failure() is None
        assert all(t.done and t.result is None for t in checks._tasks)
        assert checks._tasks[3].opened is None  # never opened: the full check
    finally:
        checks.close()


@pytest.mark.slow
def test_a_worker_that_dies_leaves_its_proofs_to_this_process():
    """A worker killed mid-audit (out of memory, say) breaks the pool: the proofs it held
    and the ones still to come are checked here, with the same result."""
    args, opened = _hand_of_proofs()
    checks = proofs.ProofChecks(1)
    try:
        handles = [checks.submit(k, k, a) for k, a in enumerate(args)]
        checks.open(handles[:1], opened[:1])
        pool = checks._pool
        assert pool is not None
        for proc in list(pool._processes.values()):  # type: ignore[attr-defined]
            proc.kill()
            proc.join()
        with contextlib.suppress(Exception):  # broken, or done before the kill
            checks._tasks[0].future.result()  # type: ignore[union-attr]
        checks.open(handles[1:], opened[1:])
        assert checks.first_failure() is None
        assert all(t.done and t.result is None for t in checks._tasks)
    finally:
        checks.close()


def _flip_response(m, s):
    at = 161 + 64 * 40  # the first s'_i (docs/shuffle-proof.md, wire layout)
    return {**m, "proof": m["proof"][:at] + bytes([m["proof"][at] ^ 1]) + m["proof"][at + 1:]}


def _swap_two_ciphertexts(m, s):
    d = m["deck"]
    return {**m, "deck": d[64:128] + d[:64] + d[128:]}


@pytest.mark.parametrize("change", [_flip_response, _swap_two_ciphertexts])
@pytest.mark.slow
def test_a_bad_proof_the_players_missed_is_blamed_on_its_prover_on_every_core(
        change, monkeypatch, tmp_path):
    """The players do not check the proofs (their check is switched off), so the hand goes
    on to its reveal: with a response changed, the seeds then open and the deck is
    recomputed as honest, and the proof is checked with its witness; with two
    ciphertexts swapped after proving, the recomputation fails and the proof gets the
    full check.  Either way the verdict is the serial one: the prover, at its shuffle."""
    monkeypatch.setattr(shuffle_proof, "verify_shuffle", lambda *a, **k: None)
    played = play(4, proofs=True, cheater=2, hook=change_item("deal/shuffle", change, nth=1),
                  seed=23, key=b"workers-missed-" + change.__name__.encode())
    monkeypatch.undo()
    path = played.write_log(tmp_path / "missed.chklog", seat=0)
    report = _same_as_serial(path)
    assert (report.verdict, report.code, report.blamed) == (INVALID, "deal_failure", 2)
    assert report.reason.startswith("bad_shuffle_proof:")
    real, refused = shuffle_proof.verify_shuffle, []

    def spy(*args, opened=None):
        try:
            real(*args, opened=opened)
        except shuffle_proof.ShuffleProofError:
            refused.append(opened is not None)
            raise
    monkeypatch.setattr(shuffle_proof, "verify_shuffle", spy)
    assert audit_log(path, workers=0).blamed == 2
    assert refused == [change is _flip_response]  # which check refused it
