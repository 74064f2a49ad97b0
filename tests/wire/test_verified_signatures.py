"""A process remembers the signatures it verified (``wire.codec.verify_signature``): the
very same key, domain, data and signature verify again without Ed25519; any byte
changed is verified in full (and refused); a refusal is never kept."""

from __future__ import annotations

import pytest

from chkobba_p2p.wire import codec
from chkobba_p2p.wire.codec import Identity, keep_verified_signatures, verify_signature


@pytest.fixture(autouse=True)
def _kept():
    keep_verified_signatures(True)
    yield
    keep_verified_signatures(True)


def _flip(data: bytes, at: int = 0) -> bytes:
    return data[:at] + bytes([data[at] ^ 1]) + data[at + 1:]


def test_a_verified_signature_is_known_and_any_other_byte_is_verified_in_full():
    me, other = Identity.generate(), Identity.generate()
    sig = me.sign(b"domain", b"data")
    assert verify_signature(me.public, b"domain", b"data", sig)
    assert verify_signature(me.public, b"domain", b"data", sig)  # known: passes again
    assert not verify_signature(other.public, b"domain", b"data", sig)
    assert not verify_signature(me.public, b"domaim", b"data", sig)
    assert not verify_signature(me.public, b"domain", b"dat", sig)
    assert not verify_signature(me.public, b"domain", b"data", _flip(sig, 5))


def test_a_refusal_is_never_kept_and_switched_off_nothing_is():
    me = Identity.generate()
    sig = me.sign(b"d", b"x")
    assert not verify_signature(me.public, b"d", b"y", sig)
    assert not verify_signature(me.public, b"d", b"y", sig)  # refused again, in full
    assert not codec._verified_young and not codec._verified_old
    keep_verified_signatures(False)
    assert verify_signature(me.public, b"d", b"x", sig)
    assert not codec._verified_young and not codec._verified_old
    keep_verified_signatures(True)
    assert verify_signature(me.public, b"d", b"x", sig)
    assert len(codec._verified_young) == 1


def test_the_memory_is_bounded():
    me = Identity.generate()
    signed = [(i.to_bytes(4, "big"), me.sign(b"d", i.to_bytes(4, "big")))
              for i in range(codec.VERIFIED_LIMIT + 5)]
    for data, sig in signed:
        assert verify_signature(me.public, b"d", data, sig)
    assert len(codec._verified_young) + len(codec._verified_old) <= 2 * codec.VERIFIED_LIMIT
    assert len(codec._verified_young) == 5
