"""The project's SHA-256, HMAC-SHA-256 and constant-time comparison (``chkobba_p2p._digest``,
from ``cryptography``, not ``hashlib``: issue 44, a peer's memory) give the standard's
bytes: every chain id, fingerprint, ruleset hash, greeting seal and bot key depends on it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from chkobba_p2p._digest import equal, hmac_sha256, sha256


def test_sha256_is_the_standard_one_over_the_parts_in_order():
    # FIPS 180-2's "abc" and the empty message
    assert sha256(b"abc").hex() == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    assert sha256().hex() == (
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    assert sha256(b"a", b"", b"bc") == sha256(b"abc")


def test_hmac_sha256_is_rfc_4231():
    # RFC 4231, test cases 1 and 2
    assert hmac_sha256(b"\x0b" * 20, b"Hi There").hex() == (
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    assert hmac_sha256(b"Jefe", b"what do ya want ", b"for nothing?").hex() == (
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")


@given(st.binary(max_size=40), st.binary(max_size=40))
def test_equal_is_byte_equality(a, b):
    assert equal(a, b) is (a == b)
    assert equal(a, a) is True
    assert equal(a, a + b"\x00") is False
