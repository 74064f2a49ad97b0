"""``chkobba replay`` on every core (issue 29): shuffle proofs checked by worker processes,
in batches, by default on a machine of two cores or more, with the very verdict and blame
of the serial audit."""

from __future__ import annotations

import os

import pytest
from test_audit import deal_cheats
from test_audit_support import play

from chkobba_p2p import observer
from chkobba_p2p.audit import INVALID, VALID, audit_log, default_workers

SAME = ("verdict", "code", "blamed", "entry", "reason", "records", "aborts", "warnings")


def _same_as_serial(path):
    serial = audit_log(path, workers=0)
    for workers in (None, 1, 2):  # the default, one worker, two
        report = audit_log(path, workers=workers)
        for attr in SAME:
            assert getattr(report, attr) == getattr(serial, attr), (workers, attr)
    return serial


def test_an_honest_log_with_proofs_is_valid_on_every_core(tmp_path):
    played = play(2, proofs=True, seed=21, key=b"workers-honest")
    report = _same_as_serial(played.write_log(tmp_path / "honest.chklog"))
    assert report.verdict == VALID and len(report.records) > 1


@pytest.mark.parametrize("code,in_process", [
    ("bad_shuffle_proof", False),  # found by a worker
    ("duplicate_ciphertext", True),  # found by the audit's own process, proofs in workers
])
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
    assert workers <= observer.MAX_DEFAULT_WORKERS


def test_proofs_go_to_the_workers_in_batches():
    checks = observer._ProofChecks(1)
    try:
        assert observer.PROOF_BATCH > 1
        for i in range(observer.PROOF_BATCH - 1):
            checks.submit(i, 0, (b"", b"", [], [], b""))
        assert not checks._jobs  # not a task per proof
        checks.submit(observer.PROOF_BATCH, 0, (b"", b"", [], [], b""))
        assert len(checks._jobs) == 1
    finally:
        checks.close()
