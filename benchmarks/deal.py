"""Deal (mental poker) cost in one process: the shuffle phase, a whole hand, one private
card, and bytes on the wire, beside a naive *public* commit-reveal shuffle as the baseline.

Run: ``python benchmarks/deal.py`` from the repository root.  Prints one figure per line
(``name: value unit``).  Times are CPU time (``time.process_time``) charged to the peer
whose method ran, averaged over the peers, median over several runs.  Bytes are the
msgpack-encoded size of every deal message a peer sends during one hand (signatures and
envelopes of the transport not included).

* shuffle phase: keys with proofs, the seat-order shuffles, the cut (everything before the
  first card is dealt);
* whole hand: shuffle phase, the cut-and-draw opening, every deal, every card played, the
  reveal and the re-check of every shuffle step;
* one private card: a dealing step opening one position to one seat at 4 peers (the
  other three seats' shares and proofs, and every seat's checks), CPU summed over all
  peers, and the receiving seat's own CPU;
* critical path of the 4-peer shuffle phase with proofs (issue 29): simulated time from
  the first key to the moment every seat may release its first share (every deck in, the
  cut made, every shuffle proof verified at every seat), in a sans-IO harness that runs
  the real :class:`~chkobba_p2p.deal.Deal` objects: each call's real CPU time advances
  its peer's clock, a message leaves when the call that made it returns and arrives at
  once.  *serial*: today's order (each call checks the proofs it received before it
  returns; the proof travels in the deck's message); *alongside*: ``defer_work`` and
  ``proof_apart`` (the next seat shuffles at once, the proofs are made and checked
  alongside: a peer's two cores take the messages first, then the proof work);
  *alongside_one_core*: the same order on one core a peer (today's serial order gains
  nothing from a second core: each call checks before its deck leaves);
* whole hand, all peers in one process: the 4 peers' CPU together, as the tests and the
  test kit's in-memory tables run a hand, each peer checking every proof and shuffle step
  itself (*each_peer_alone*, as in every figure above) or taking a check another peer of
  the process passed, of the very same bytes, as passed (*checks_shared*: the default,
  ``chkobba_p2p/deal/passed.py``);
* baseline: every seat commits to a seed, then reveals it; the deck is the composition of
  the seeds' permutations.  Cheap, but every seat sees every card: it is what the deal
  replaces, not an alternative.

Goals (issue 3): 4-peer shuffle phase <= 60 ms per peer; one private card <= 3 ms;
<= 40 KB sent per peer per hand.  Goals (issue 8, shuffle proofs): 4-peer shuffle phase
with proofs <= 300 ms CPU per peer; <= 10 KB per proof (prove/verify alone at 40 cards:
``benchmarks/shuffle_proof.py`` has the same figures).  Goal (issue 29): the critical path
of the 4-peer shuffle phase with proofs, alongside, <= 0.5x serial.
"""

from __future__ import annotations

import heapq
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import msgpack

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chkobba_p2p.deal import Deal, passed  # noqa: E402
from chkobba_p2p.deal import crypto as dc  # noqa: E402
from chkobba_p2p.deal.group import hash_bytes, random_scalar  # noqa: E402
from chkobba_p2p.deal.local import make_table, run_hand  # noqa: E402
from chkobba_p2p.deal.shuffle_proof import prove_shuffle, verify_shuffle  # noqa: E402

RUNS = 7


def shuffle_phase(n: int, proofs: bool = False) -> float:
    t = make_table(n, cutter=1 % n, shuffle_proofs=proofs)
    t.start()
    t.call(1 % n, "cut", 20)
    t.deliver()
    return statistics.mean(t.cpu) * 1000


def whole_hand(n: int, proofs: bool = False) -> tuple[float, float]:
    run = run_hand(n, dealer=0, redeal=False, shuffle_proofs=proofs)
    t = run.tables[0]
    return statistics.mean(t.cpu) * 1000, statistics.mean(t.bytes_sent)


def private_card() -> tuple[float, float]:
    t = make_table(4, cutter=1)
    t.start()
    t.call(1, "cut", 20)
    t.deliver()
    before = list(t.cpu)
    t.call_all("open", {1: [0]})
    t.deliver()
    spent = [a - b for a, b in zip(t.cpu, before, strict=True)]
    assert t.peers[1].card_at(0) is not None
    return sum(spent) * 1000, spent[1] * 1000


def shuffle_proof_40() -> tuple[float, float, int]:
    """One shuffle step of the 40-card deck: prove ms, verify ms, proof bytes."""
    joint = dc.public_key(random_scalar())
    seed = dc.new_seed()
    perm, rands = dc.expand_permutation(seed), dc.expand_randomizers(seed)
    inp = dc.shuffle_step(dc.initial_deck(), joint, list(range(dc.DECK_SIZE)), rands)
    out = dc.shuffle_step(inp, joint, perm, rands)
    ctx = b"bench shuffle proof"
    t0 = time.process_time()
    proof = prove_shuffle(ctx, joint, inp, out, perm, rands)
    t1 = time.process_time()
    verify_shuffle(ctx, joint, inp, out, proof)
    t2 = time.process_time()
    return (t1 - t0) * 1000, (t2 - t1) * 1000, len(proof)


def naive_hand(n: int) -> tuple[float, float]:
    """Public commit-reveal: CPU per peer and bytes per peer for one hand."""
    ctx = [b"naive", dc.u64(0), dc.u64(0), dc.u64(n)]
    cpu = [0.0] * n
    sent = [0] * n
    seeds = []
    commits = []
    for s in range(n):
        t0 = time.process_time()
        seed = dc.new_seed()
        c = dc.commit_seed(ctx, s, seed)
        cpu[s] += time.process_time() - t0
        seeds.append(seed)
        commits.append(c)
        sent[s] += len(msgpack.packb({"t": "naive/commit", "commit": c}))
    for s in range(n):
        sent[s] += len(msgpack.packb({"t": "naive/reveal", "seed": seeds[s]}))
        t0 = time.process_time()
        for j in range(n):
            assert dc.commit_seed(ctx, j, seeds[j]) == commits[j]
        deck = list(range(dc.DECK_SIZE))
        for j in range(n):
            perm = dc.expand_permutation(hash_bytes(b"naive", seeds[j]))
            deck = [deck[perm[i]] for i in range(dc.DECK_SIZE)]
        cpu[s] += time.process_time() - t0
    per_seat_cards = (dc.DECK_SIZE - 4) // n
    for s in range(n):
        sent[s] += per_seat_cards * len(msgpack.packb({"t": "play", "card": 39}))
    return statistics.mean(cpu) * 1000, statistics.mean(sent)


def critical_path(n: int, mode: str) -> float:
    """Milliseconds from the first key until every seat may release a share (see the
    module's docstring); ``mode``: serial, alongside (2 cores a peer) or
    alongside_one_core."""
    deferred = mode != "serial"
    cores = 2 if mode == "alongside" else 1
    cutter = 1 % n
    peers = [Deal(session_id=b"critical-path", hand=1, instance=0, n=n, seat=s,
                  cutter=cutter, shuffle_proofs=True, defer_work=deferred,
                  proof_apart=deferred) for s in range(n)]
    free = [[0.0] * cores for _ in range(n)]  # when each core of each peer is free
    work_ready = [0.0] * n  # when its pending proof work became known
    last_work = [0.0] * n
    inbox: list[list[tuple[float, int, int, dict[str, Any]]]] = [[] for _ in range(n)]
    ready: list[float | None] = [None] * n
    seq = 0

    def run(seat: int, start: float, call, work: bool = False) -> float:
        nonlocal seq
        core = free[seat].index(min(free[seat]))
        t0 = time.process_time()
        out = call()
        end = start + time.process_time() - t0
        free[seat][core] = end
        if work:
            last_work[seat] = max(last_work[seat], end)
        for msg in out.messages:
            data = msgpack.packb(msg)
            for j in range(n):
                if j != seat:
                    seq += 1
                    heapq.heappush(inbox[j], (end, seq, seat, msgpack.unpackb(data)))
        if peers[seat].has_work and work_ready[seat] < end:
            work_ready[seat] = end
        if seat == cutter and peers[seat].phase == "cut":
            end = run(seat, end, lambda: peers[seat].cut(7))
        if ready[seat] is None and peers[seat].phase == "deal" and peers[seat].proofs_verified:
            ready[seat] = max(end, last_work[seat])
        return end

    for s in range(n):
        run(s, 0.0, peers[s].start)
    while True:
        # The next action in time, messages before proof work (the next shuffler shuffles
        # at once); an action runs on the peer's first free core, to its end.
        choices = []
        for s in range(n):
            if inbox[s]:
                choices.append((max(min(free[s]), inbox[s][0][0]), 0, s))
            if peers[s].has_work:
                choices.append((max(min(free[s]), work_ready[s]), 1, s))
        if not choices:
            break
        start, kind, s = min(choices)
        if kind == 0:
            _, _, sender, msg = heapq.heappop(inbox[s])
            run(s, start, lambda s=s, sender=sender, msg=msg: peers[s].receive(sender, msg))
        else:
            run(s, start, peers[s].work, work=True)
    assert all(r is not None for r in ready), ready
    return max(r for r in ready if r is not None) * 1000


def whole_hand_one_process(proofs: bool, shared: bool) -> float:
    """CPU of the whole 4-peer hand, all peers together in one process (as the tests
    and the test kit's tables run them), with or without the memory of checks passed
    in the process (``chkobba_p2p/deal/passed.py``)."""
    passed.set_enabled(shared)
    try:
        run = run_hand(4, dealer=0, redeal=False, shuffle_proofs=proofs)
    finally:
        passed.set_enabled(False)
    return sum(run.tables[0].cpu) * 1000


def median(f, *args):
    results = [f(*args) for _ in range(RUNS)]
    if isinstance(results[0], tuple):
        return tuple(statistics.median(r[i] for r in results) for i in range(len(results[0])))
    return statistics.median(results)


def main() -> None:
    # Each peer's figures are a peer's alone: no check passed by another peer of the
    # process is taken as known (deal/passed.py), but in the one-process lines below.
    passed.set_enabled(False)
    for n in (2, 4):
        print(f"deal_shuffle_phase_{n}p_cpu_per_peer: {median(shuffle_phase, n):.1f} ms")
    for n in (2, 4):
        ms, nbytes = median(whole_hand, n)
        print(f"deal_whole_hand_{n}p_cpu_per_peer: {ms:.1f} ms")
        print(f"deal_whole_hand_{n}p_bytes_per_peer: {nbytes / 1000:.1f} KB")
    total, receiver = median(private_card)
    print(f"deal_private_card_4p_cpu_all_peers: {total:.2f} ms")
    print(f"deal_private_card_4p_cpu_receiver: {receiver:.2f} ms")
    global RUNS
    RUNS = 3
    prove_ms, verify_ms, proof_bytes = median(shuffle_proof_40)
    print(f"shuffle_proof_prove_40_cards_cpu: {prove_ms:.1f} ms")
    print(f"shuffle_proof_verify_40_cards_cpu: {verify_ms:.1f} ms")
    print(f"shuffle_proof_bytes_40_cards: {proof_bytes:.0f} bytes")
    print(f"deal_shuffle_phase_4p_with_shuffle_proofs_cpu_per_peer: "
          f"{median(shuffle_phase, 4, True):.1f} ms")
    paths = {mode: median(critical_path, 4, mode)
             for mode in ("serial", "alongside", "alongside_one_core")}
    for mode, ms in paths.items():
        print(f"deal_shuffle_phase_4p_with_shuffle_proofs_critical_path_{mode}: {ms:.1f} ms")
    for mode in ("alongside", "alongside_one_core"):
        print(f"deal_shuffle_phase_4p_with_shuffle_proofs_critical_path_{mode}_ratio: "
              f"{paths[mode] / paths['serial']:.2f} x serial (goal <= 0.5)")
    ms, nbytes = median(whole_hand, 4, True)
    print(f"deal_whole_hand_4p_with_shuffle_proofs_cpu_per_peer: {ms:.1f} ms")
    print(f"deal_whole_hand_4p_with_shuffle_proofs_bytes_per_peer: {nbytes / 1000:.1f} KB")
    for proofs in (False, True):
        kind = "with_shuffle_proofs_" if proofs else ""
        for shared in (False, True):
            ms = median(whole_hand_one_process, proofs, shared)
            print(f"deal_whole_hand_4p_{kind}cpu_all_peers_one_process_"
                  f"{'checks_shared' if shared else 'each_peer_alone'}: {ms:.1f} ms")
    RUNS = 7
    for n in (2, 4):
        ms, nbytes = median(naive_hand, n)
        print(f"baseline_public_commit_reveal_{n}p_cpu_per_peer: {ms:.2f} ms")
        print(f"baseline_public_commit_reveal_{n}p_bytes_per_peer: {nbytes / 1000:.2f} KB")


if __name__ == "__main__":
    main()
