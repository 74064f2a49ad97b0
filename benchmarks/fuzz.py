"""Fuzz everything a peer reads from the network: the frame decoder, the handshake
messages (``host``, ``hello``, ``welcome``) and the acceptance of signed entries.

    python benchmarks/fuzz.py --inputs 1000000 [--engine atheris|random] [--seed N]

A *crash* is any exception other than the library's refusals (``ProtocolError``,
``GameFault``): a traceback a hostile peer could trigger.  Each input's first byte picks
a target; inputs are mutated from a corpus of real messages (a whole match between
in-process sessions, a real handshake).  For the handshake and entry targets, half the
inputs are *re-signed* after mutation (a proof of possession, an entry signature), so
that the checks behind the signatures are reached too.

Engines: ``atheris`` (libFuzzer, coverage guided; ``pip install atheris``), run in a
child process; ``random`` (a mutation loop in this process), used when atheris is
missing.  Prints ``fuzz_inputs``, ``fuzz_crashes``, ``fuzz_inputs_per_s`` and each
distinct crash (type, target, input in hex) on stderr.  ``tests/wire/test_fuzz.py`` runs the
same targets under Hypothesis with a bounded number of examples.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import copyreg
import hashlib
import json
import random
import subprocess
import sys
import tempfile
import time
import traceback
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from chkobba_p2p.errors import RemoteError  # noqa: E402
from chkobba_p2p.game.rules import Ruleset  # noqa: E402
from chkobba_p2p.link.handshake import ClientHandshake, HostHandshake, Lobby  # noqa: E402
from chkobba_p2p.transcript.session import Session  # noqa: E402
from chkobba_p2p.wire import codec as wire  # noqa: E402

# Sessions are copied to restore a receiver after an input it accepted; the rules
# engine's read-only tables (mapping proxies) copy as plain copies.
copyreg.pickle(types.MappingProxyType, lambda m: (types.MappingProxyType, (dict(m),)))

TARGETS = ("frames", "decode", "hello", "greeting", "welcome", "entry")
KEY = b"chkobba-p2p fuzz corpus"


def _derive(label: str) -> bytes:
    return hashlib.sha256(KEY + b"/" + label.encode()).digest()


class Fuzzer:
    """The targets and their corpus.  :meth:`one` runs one input and raises only for a
    crash (anything but the library's refusals)."""

    def __init__(self, checkpoints: int = 12) -> None:
        from support.audit import play  # a whole match between in-process sessions

        played = play(2, key=KEY, proofs=False, seed=3)
        self.host_id, self.guest_id = played.identities
        self.master = _derive("master 1")
        self.bodies = list(played.sessions[0].bodies)
        # Receivers: the guest's session just before each sampled host entry.
        idx = [i for i in range(1, len(self.bodies))
               if wire.open_entry(self.bodies[i]).seat == 0]
        step = max(1, len(idx) // checkpoints)
        self.points = []
        for i in idx[::step][:checkpoints]:
            s = Session.resume(self.guest_id, self.bodies[:i], self.host_id.public,
                               self.master)
            self.points.append((i, s))
        self.live = [copy.deepcopy(s) for _, s in self.points]
        # The handshake: a lobby whose table runs a game (for resumes) and one that fills.
        self.lobby = Lobby(self.host_id, "host", Ruleset(), 4)
        hs = HostHandshake(self.lobby, nonce=bytes(32))
        self.greeting = wire.encode(hs.greeting())
        c = ClientHandshake(self.guest_id, "guest", nonce=bytes(range(32)))
        self.hello = wire.encode(c.on_host(wire.decode(self.greeting), self.greeting))
        welcome, _, _ = hs.on_hello(wire.decode(self.hello), self.hello)
        self.lobby.leave(1)
        self.welcome = wire.encode(welcome)
        self.corpus = [self.greeting, self.hello, self.welcome, *self.bodies]

    # ------------------------------------------------------------------ targets

    def one(self, data: bytes) -> None:
        if len(data) < 2:
            return
        target = TARGETS[data[0] % len(TARGETS)]
        with contextlib.suppress(RemoteError, wire.ProtocolError):
            getattr(self, "_" + target)(data[1], data[2:])

    def _frames(self, mode: int, data: bytes) -> None:
        decoder = wire.FrameDecoder(wire.MAX_HELLO if mode & 1 else wire.MAX_FRAME)
        rng = random.Random(mode)
        pos = 0
        while pos < len(data):
            n = rng.randint(1, 64)
            for body in decoder.feed(data[pos:pos + n]):
                wire.decode(body)
            pos += n

    def _decode(self, mode: int, data: bytes) -> None:
        wire.decode(data, want_map=bool(mode & 1))

    def _hello(self, mode: int, data: bytes) -> None:
        lobby = self.lobby
        running = lobby.game = bytes(16) if mode & 2 else None
        try:
            hs = HostHandshake(lobby, running, nonce=bytes(32))
            greeting = wire.encode(hs.greeting())
            msg = wire.decode(data)
            if mode & 1:  # re-sealed: a valid proof over the mutated hello
                c = ClientHandshake(self.guest_id, "guest")
                c.on_host(wire.decode(greeting), greeting)
                msg = c.seal_hello({k: v for k, v in msg.items() if k != "pop"})
                data = wire.encode(msg)
            hs.on_hello(msg, data, 3)
        finally:
            lobby.game = None
            for seat in range(1, lobby.players):
                lobby.leave(seat)

    def _greeting(self, mode: int, data: bytes) -> None:
        c = ClientHandshake(self.guest_id, "guest")
        c.on_host(wire.decode(data), data)

    def _welcome(self, mode: int, data: bytes) -> None:
        c = ClientHandshake(self.guest_id, "guest", nonce=bytes(range(32)))
        c.on_host(wire.decode(self.greeting), self.greeting)
        msg = wire.decode(data)
        if mode & 1:  # re-sealed by the host's key over this handshake
            c.players = 4
            msg = wire.seal_pop({k: v for k, v in msg.items() if k != "pop"},
                                lambda zeroed: self.host_id.sign(
                                    wire.POP_HOST_DOMAIN,
                                    wire.handshake_hash(self.greeting, self.hello, zeroed)))
            data = wire.encode(msg)
        c.on_welcome(msg, data)

    def _entry(self, mode: int, data: bytes) -> None:
        k = (mode >> 1) % len(self.points)
        if mode & 1:  # re-signed: ``data`` is a payload the host signed (whatever seat
            # it names: the receiver is the guest, whose own key signs nothing it did not
            # make)
            data = wire.encode({"t": "sig", "p": data,
                                "s": self.host_id.sign(wire.ENTRY_DOMAIN, data)})
        session = self.live[k]
        entry = wire.open_entry(data)
        session.check(entry)
        try:
            session.receive(entry, checked=True)
        except BaseException:
            self.live[k] = copy.deepcopy(self.points[k][1])  # accepted: start afresh
            raise
        if session.length != self.points[k][1].length or session.finished:
            self.live[k] = copy.deepcopy(self.points[k][1])

    # --------------------------------------------------------------- seeds

    def seeds(self) -> list[bytes]:
        """Seeds per target: the target byte, a mode byte, the bytes (for the entry
        target, the entry that comes next at each receiver, whole or as a payload)."""
        out = []
        for t, name in enumerate(TARGETS):
            if name == "entry":
                for k, (i, _) in enumerate(self.points):
                    out.append(bytes([t, k << 1]) + self.bodies[i])
                    out.append(bytes([t, k << 1 | 1]) + wire.open_entry(self.bodies[i]).payload)
                continue
            msgs = {"hello": [self.hello], "greeting": [self.greeting],
                    "welcome": [self.welcome]}.get(name, self.corpus)
            for msg in msgs:
                for mode in (0, 1, 2, 3):
                    out.append(bytes([t, mode]) + (wire.frame(msg) if name == "frames"
                                                   else msg))
        return out


# ---------------------------------------------------------------------- mutations


def mutate(rng: random.Random, data: bytes, corpus: list[bytes]) -> bytes:
    """A few byte-level and msgpack-aware mutations of ``data``."""
    b = bytearray(data)
    for _ in range(rng.choice((1, 1, 2, 3, 6))):
        op = rng.randrange(9)
        if not b:
            b += bytes([rng.randrange(256)])
        i = rng.randrange(len(b))
        if op == 0:
            b[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            b[i] = rng.choice((0x00, 0x7F, 0x80, 0xC0, 0xC1, 0xC2, 0xC3, 0xCA, 0xCB, 0xD4,
                               0xD9, 0xDA, 0xDB, 0xDC, 0xDD, 0xDE, 0xDF, 0xFF, 0x90, 0xA0))
        elif op == 2:
            del b[i:i + rng.randint(1, 8)]
        elif op == 3:
            b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif op == 4:
            other = rng.choice(corpus)
            j = rng.randrange(len(other))
            b[i:] = other[j:j + rng.randint(1, 256)]
        elif op == 5:
            b[i:i] = b[i:i + rng.randint(1, 32)] * rng.randint(1, 8)
        elif op == 6:  # an interesting integer
            v = rng.choice((0, 1, 39, 40, 255, 256, 2**31, 2**63 - 1, 2**64 - 1, -1, -2**63))
            b[i:i] = wire.encode(v)
        elif op == 7:
            del b[i:]
        else:
            b[i:i + 2] = b[i:i + 2][::-1]
    return bytes(b)


_VALUES = (0, 1, -1, 2, 3, 7, 39, 40, 41, 255, 256, 65535, 2**31, 2**32, 2**63 - 1,
           2**64 - 1, -2**63, True, False, None, "", "x", "play", "cut", "deal/shares",
           "deal/play", "turn", "done", "abort", b"", bytes(32), bytes(64), [], {}, [0],
           {"t": "play"}, [None], "\x1b[2J", "é" * 40)


def mutate_value(rng: random.Random, obj: object, depth: int = 0) -> object:
    """A structure-aware mutation: one node of a decoded message replaced, removed,
    added to or re-typed."""
    if isinstance(obj, dict) and obj and rng.random() < 0.75:
        key = rng.choice(list(obj))
        out = dict(obj)
        r = rng.random()
        if r < 0.6:
            out[key] = mutate_value(rng, obj[key], depth + 1)
        elif r < 0.75:
            del out[key]
        elif r < 0.9:
            out[rng.choice(("x", "pad", "t", "a", "d", "seat", "pos", key + "2"))] = \
                rng.choice(_VALUES)
        else:
            out[key] = rng.choice(_VALUES)
        return out
    if isinstance(obj, list) and obj and rng.random() < 0.75:
        out_l = list(obj)
        i = rng.randrange(len(out_l))
        r = rng.random()
        if r < 0.6:
            out_l[i] = mutate_value(rng, out_l[i], depth + 1)
        elif r < 0.75:
            del out_l[i]
        elif r < 0.9:
            out_l.insert(i, out_l[i] if rng.random() < 0.5 else rng.choice(_VALUES))
        else:
            out_l[i] = rng.choice(_VALUES)
        return out_l
    if isinstance(obj, bytes) and obj and rng.random() < 0.5:
        b = bytearray(obj)
        b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        return bytes(b) if rng.random() < 0.8 else bytes(b[:rng.randrange(len(b))])
    if isinstance(obj, int) and not isinstance(obj, bool) and rng.random() < 0.5:
        return obj + rng.choice((-1, 1, 40, -40))
    if isinstance(obj, dict) and "p" in obj and isinstance(obj["p"], bytes):
        pass
    return rng.choice(_VALUES)


def mutate_message(rng: random.Random, data: bytes) -> bytes | None:
    """``data`` decoded, mutated as a structure and encoded again; for a ``sig``
    message, its payload is mutated instead (the signature then fails unless re-signed).
    None if ``data`` does not decode."""
    try:
        obj = wire.decode(data, want_map=False)
    except wire.ProtocolError:
        return None
    if isinstance(obj, dict) and obj.get("t") == "sig" and isinstance(obj.get("p"), bytes):
        inner = mutate_message(rng, obj["p"])
        if inner is not None:
            return wire.encode({**obj, "p": inner})
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        obj = mutate_value(rng, obj)
    try:
        return wire.encode(obj)
    except Exception:  # noqa: BLE001 - an int msgpack cannot hold
        return None


# -------------------------------------------------------------------------- runs


class Tally:
    def __init__(self) -> None:
        self.inputs = 0
        self.crashes = 0
        self.kinds: dict[str, str] = {}

    def record(self, data: bytes, exc: BaseException) -> None:
        self.crashes += 1
        tb = traceback.extract_tb(exc.__traceback__)
        where = f"{type(exc).__name__} at {tb[-1].filename}:{tb[-1].lineno}" if tb else \
            type(exc).__name__
        target = TARGETS[data[0] % len(TARGETS)] if data else "?"
        self.kinds.setdefault(f"{target}: {where}", data[:2048].hex())


def run_random(n: int, seed: int, tally: Tally, progress: bool) -> None:
    fuzzer = Fuzzer()
    rng = random.Random(seed)
    pools: dict[int, list[bytes]] = {}
    for seed_input in fuzzer.seeds():  # one pool per target: each gets its share
        pools.setdefault(seed_input[0], []).append(seed_input)
    assert sorted(pools) == list(range(len(TARGETS)))
    t0 = time.monotonic()
    for i in range(n):
        pool = pools[rng.randrange(len(TARGETS))]  # target bytes are 0..5 in the seeds
        parent = rng.choice(pool)
        r = rng.random()
        data = None
        if len(parent) < 2:
            pass
        elif r < 0.55:
            body = parent[2:]
            framed = parent[0] == TARGETS.index("frames")
            inner = mutate_message(rng, body[4:] if framed else body)
            if inner is not None:
                data = parent[:2] + (wire.frame(inner) if framed and len(inner) <= wire.MAX_FRAME
                                     else inner)
        elif r < 0.95 and len(parent) >= 2:
            mode = parent[1] if rng.random() < 0.8 else rng.randrange(256)
            data = parent[:1] + bytes([mode]) + mutate(rng, parent[2:], fuzzer.corpus)
        if data is None:
            data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 64)))
        try:
            fuzzer.one(data)
        except Exception as exc:  # noqa: BLE001 - that is what we look for
            tally.record(data, exc)
        tally.inputs += 1
        if rng.random() < 0.001 and len(data) >= 2 and data[0] in pools \
                and len(pools[data[0]]) < 4096:
            pools[data[0]].append(data)  # mutants breed (no coverage: a little diversity)
        if progress and i and i % 100_000 == 0:
            rate = i / (time.monotonic() - t0)
            print(f"  {i} inputs, {tally.crashes} crashes, {rate:.0f}/s", file=sys.stderr,
                  flush=True)


def run_atheris_child(n: int, seed: int, state: Path, corpus: Path) -> None:
    """In a child process: libFuzzer drives :meth:`Fuzzer.one`; counts go to ``state``."""
    import atheris

    atheris.instrument_all()  # coverage of everything loaded: the library included
    fuzzer = Fuzzer()
    for i, s in enumerate(fuzzer.seeds()):
        (corpus / f"seed{i}").write_bytes(s)
    tally = Tally()

    def save() -> None:
        state.write_text(json.dumps({"inputs": tally.inputs, "crashes": tally.crashes,
                                     "kinds": tally.kinds}))

    def test_one(data: bytes) -> None:
        try:
            fuzzer.one(data)
        except Exception as exc:  # noqa: BLE001
            tally.record(data, exc)
        tally.inputs += 1
        if tally.inputs % 5000 == 0 or tally.inputs >= n:
            save()

    def mutator(data: bytes, max_size: int, mseed: int) -> bytes:
        """Half libFuzzer's byte mutations, half structure-aware ones (a message decoded,
        one node changed, encoded again), the target and mode bytes kept."""
        rng = random.Random(mseed)
        if len(data) >= 2 and rng.random() < 0.5:
            framed = data[0] % len(TARGETS) == TARGETS.index("frames")
            inner = mutate_message(rng, data[6:] if framed else data[2:])
            if inner is not None:
                out = data[:2] + (wire.frame(inner) if framed and len(inner) <= wire.MAX_FRAME
                                  else inner)
                return out[:max_size]
        return atheris.Mutate(data, max_size)

    save()
    atheris.Setup([sys.argv[0], f"-runs={n}", f"-seed={seed}", "-max_len=16384",
                   "-print_final_stats=1", "-close_fd_mask=0", str(corpus)], test_one,
                  custom_mutator=mutator)
    atheris.Fuzz()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--inputs", type=int, default=1_000_000, metavar="N")
    p.add_argument("--engine", choices=("auto", "atheris", "random"), default="auto")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.add_argument("--child", nargs=2, metavar=("STATE", "CORPUS"), help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        run_atheris_child(args.inputs, args.seed, Path(args.child[0]), Path(args.child[1]))
        return 0
    engine = args.engine
    if engine == "auto":
        try:
            import atheris  # noqa: F401
            engine = "atheris"
        except ImportError:
            engine = "random"
    t0 = time.monotonic()
    tally = Tally()
    if engine == "random":
        run_random(args.inputs, args.seed, tally, not args.quiet)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            state, corpus = Path(tmp) / "state.json", Path(tmp) / "corpus"
            corpus.mkdir()
            child = subprocess.run(
                [sys.executable, __file__, "--inputs", str(args.inputs), "--seed",
                 str(args.seed), "--child", str(state), str(corpus)],
                stdout=subprocess.DEVNULL, stderr=None if not args.quiet else
                subprocess.DEVNULL, check=False)
            s = json.loads(state.read_text()) if state.exists() else {}
            tally.inputs, tally.crashes = s.get("inputs", 0), s.get("crashes", 0)
            tally.kinds = s.get("kinds", {})
            if child.returncode != 0 and tally.inputs < args.inputs:
                tally.crashes += 1  # libFuzzer itself stopped (a hard crash)
                tally.kinds.setdefault(f"the fuzzer process exited {child.returncode}", "")
    elapsed = time.monotonic() - t0
    for kind, data in tally.kinds.items():
        print(f"crash: {kind}: {data[:400]}", file=sys.stderr)
    print(f"fuzz_engine: {engine}")
    print(f"fuzz_inputs: {tally.inputs}")
    print(f"fuzz_crashes: {tally.crashes}")
    print(f"fuzz_inputs_per_s: {tally.inputs / max(elapsed, 1e-9):.0f} /s")
    return 1 if tally.crashes else 0


if __name__ == "__main__":
    sys.exit(main())
