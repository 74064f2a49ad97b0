"""Fuzzing in the suite (a bounded number of examples; ``benchmarks/fuzz.py`` runs the
same targets for millions of inputs): the frame decoder, the handshake messages and the
acceptance of signed entries refuse bad input with the library's own errors only --
never another exception, whatever the bytes, mutated as bytes or as a structure, with
or without a valid signature over them."""

from __future__ import annotations

import contextlib
import importlib.util
import random

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.net import REPO_ROOT

from chkobba_p2p.wire import codec as wire

_spec = importlib.util.spec_from_file_location("fuzz_bench", REPO_ROOT / "benchmarks" / "fuzz.py")
assert _spec is not None and _spec.loader is not None
fuzz = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fuzz)

BOUNDED = settings(max_examples=150, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow])
_FUZZER = None


def fuzzer():
    global _FUZZER
    if _FUZZER is None:
        _FUZZER = fuzz.Fuzzer(checkpoints=6)
    return _FUZZER


def _seeds(target: str) -> list[bytes]:
    t = fuzz.TARGETS.index(target)
    return [s for s in fuzzer().seeds() if s[0] == t]


values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) | st.text(max_size=40)
    | st.binary(max_size=40),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=5),
    max_leaves=20)


@BOUNDED
@given(st.lists(st.binary(max_size=64), max_size=12), st.booleans())
def test_frame_decoder_on_arbitrary_chunks(chunks, small):
    decoder = wire.FrameDecoder(wire.MAX_HELLO if small else wire.MAX_FRAME)
    try:
        for chunk in chunks:
            for body in decoder.feed(chunk):
                with contextlib.suppress(wire.ProtocolError):
                    wire.decode(body)
    except wire.ProtocolError as exc:
        assert exc.error_code == wire.ErrorCode.FRAME_TOO_LARGE


@BOUNDED
@given(st.lists(st.dictionaries(st.text(max_size=8), values, max_size=6), min_size=1,
                max_size=4), st.lists(st.integers(1, 50), min_size=1, max_size=20))
def test_frames_survive_any_split(messages, cuts):
    msgs = [{**m, "t": "x"} for m in messages]
    stream = b"".join(wire.frame(wire.encode(m)) for m in msgs)
    decoder, got, pos, i = wire.FrameDecoder(), [], 0, 0
    while pos < len(stream):
        n = cuts[i % len(cuts)]
        got += decoder.feed(stream[pos:pos + n])
        pos, i = pos + n, i + 1
    assert [wire.decode(b) for b in got] == [msgpack.unpackb(wire.encode(m)) for m in msgs]
    assert not decoder.pending


@pytest.mark.parametrize("target", ["hello", "greeting", "welcome", "entry"])
@BOUNDED
@given(data=st.data())
def test_handshake_and_entries_refuse_cleanly(target, data):
    """Byte-level and structure-level mutations of real messages (half of them
    re-signed for the entry target, re-sealed for hello and welcome): only the
    library's refusals come out."""
    f = fuzzer()
    parent = data.draw(st.sampled_from(_seeds(target)), label="seed")
    rng = random.Random(data.draw(st.integers(0, 2**32), label="rng"))
    how = data.draw(st.sampled_from(["structure", "bytes", "fields"]), label="how")
    if how == "structure":
        inner = fuzz.mutate_message(rng, parent[2:])
        body = inner if inner is not None else parent[2:]
    elif how == "bytes":
        body = fuzz.mutate(rng, parent[2:], f.corpus)
    else:  # Hypothesis picks the fields of a message of the target's type
        base = wire.decode(parent[2:], want_map=False)
        extra = data.draw(st.dictionaries(st.sampled_from(sorted(base)), values, max_size=3))
        body = wire.encode({**base, **extra})
    mode = parent[1] | data.draw(st.integers(0, 1), label="resign")
    f.one(bytes([parent[0], mode]) + body)  # raises only for a crash


@BOUNDED
@given(st.binary(max_size=300), st.integers(0, 255), st.integers(0, 5))
def test_any_bytes_at_any_target(data, mode, target):
    fuzzer().one(bytes([target, mode]) + data)


@pytest.mark.slow
def test_the_benchmark_reports_its_figures(tmp_path):
    """``benchmarks/fuzz.py`` prints its figures (a short run, the in-process engine)."""
    import subprocess
    import sys

    r = subprocess.run([sys.executable, str(REPO_ROOT / "benchmarks" / "fuzz.py"), "--inputs",
                        "300", "--engine", "random", "--quiet"], capture_output=True, text=True,
                       timeout=300, cwd=REPO_ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "fuzz_inputs: 300" in r.stdout and "fuzz_crashes: 0" in r.stdout
