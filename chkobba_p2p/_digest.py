"""SHA-256, HMAC-SHA-256 and a constant-time comparison, from ``cryptography`` (the
project's library for signatures and hashing).

Not from :mod:`hashlib`, :mod:`hmac` or :mod:`secrets`: importing any of them loads the
system's OpenSSL (``_hashlib`` and its libcrypto, about 3.4 MB of a peer's memory, issue
44), beside the OpenSSL that ``cryptography`` carries and every peer loads anyway for its
signatures.  The digests are the same bytes (SHA-256 is SHA-256); random bytes come from
:func:`os.urandom`, which is what :func:`secrets.token_bytes` returns.
"""

from __future__ import annotations

import os

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, hmac

__all__ = ["sha256", "hmac_sha256", "equal"]


def sha256(*parts: bytes) -> bytes:
    """SHA-256 of the parts, one after the other."""
    h = hashes.Hash(hashes.SHA256())
    for part in parts:
        h.update(part)
    return h.finalize()


def hmac_sha256(key: bytes, *parts: bytes) -> bytes:
    """HMAC-SHA-256 under ``key`` of the parts, one after the other."""
    mac = hmac.HMAC(key, hashes.SHA256())
    for part in parts:
        mac.update(part)
    return mac.finalize()


def equal(a: bytes, b: bytes) -> bool:
    """``a == b`` in a time that does not tell where they differ (what
    :func:`hmac.compare_digest` is for): both are keyed under a fresh random key and the
    two MACs compared by OpenSSL's constant-time ``CRYPTO_memcmp`` (``HMAC.verify``), so
    even a comparison that stopped early would compare bytes nobody can predict."""
    key = os.urandom(32)
    mac = hmac.HMAC(key, hashes.SHA256())
    mac.update(a)
    try:
        mac.verify(hmac_sha256(key, b))
    except InvalidSignature:
        return False
    return True
