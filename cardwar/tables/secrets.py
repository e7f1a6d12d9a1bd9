"""Random game ids and seat secrets; secrets are stored only as hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets as _secrets


def new_game_id() -> str:
    """Return a random URL-safe game id (12 random bytes = 96 bits, 16 characters)."""
    return _secrets.token_urlsafe(12)


def new_secret() -> str:
    """Return a new random seat secret (32 random bytes, URL-safe text)."""
    return _secrets.token_urlsafe(32)


def hash_secret(secret: str) -> str:
    """Return the SHA-256 hex digest of ``secret``, the form kept in the store."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def same_hash(a: str | None, b: str | None) -> bool:
    """Compare two secret hashes in constant time; None never matches."""
    return a is not None and b is not None and hmac.compare_digest(a, b)
