"""How ``deid serve`` listens and what it accepts; the bind and token checks that make a
service beyond loopback impossible to start without a token."""

from __future__ import annotations

import ipaddress
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from deid.sources.errors import UserError
from deid.sources.reviews import DEFAULT_DIR

TOKEN_ENV = "DEID_SERVE_TOKEN"
MIN_TOKEN_LENGTH = 16
LOOPBACK_NAMES = frozenset({"localhost"})


class ServiceRefused(UserError):
    """The service cannot start with these settings (a bind beyond loopback without a token,
    a token that is too short, a token file others can read)."""


@dataclass(frozen=True)
class ServiceSettings:
    host: str = "127.0.0.1"
    port: int = 8000
    token: str | None = None  # bearer token; required beyond loopback, honoured everywhere
    max_bytes: int = 16 * 1024 * 1024  # request body limit (a 50-page DOCX is ~100 kB)
    timeout: float = 120.0  # seconds per request, waiting for the model included
    reviews_dir: Path = DEFAULT_DIR
    operator: str = "label"  # the page's default operator

    def __repr__(self) -> str:  # never print the token
        return f"ServiceSettings(host={self.host!r}, port={self.port}, token={'set' if self.token else None})"


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (``127.0.0.0/8``, ``::1``); a name
    other than localhost counts as beyond loopback (it may resolve anywhere)."""
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def load_token(token_file: Path | None, environ: dict[str, str] | None = None) -> str | None:
    """The bearer token from ``token_file`` (first line; the file must not be readable by
    group or others), else from ``$DEID_SERVE_TOKEN``; never from the command line, where
    every user of the machine could read it in the process list."""
    environ = os.environ if environ is None else environ
    if token_file is not None:
        try:
            mode = token_file.stat().st_mode
            lines = token_file.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise ServiceRefused(f"token file {token_file}: {exc.strerror}") from None
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise ServiceRefused(f"token file {token_file} is readable by others: chmod 600 it")
        token = lines[0].strip() if lines else ""
    else:
        token = environ.get(TOKEN_ENV, "").strip()
    if not token:
        return None
    if len(token) < MIN_TOKEN_LENGTH:
        raise ServiceRefused(f"the token must have at least {MIN_TOKEN_LENGTH} characters")
    return token


def check_bind(host: str, token: str | None) -> None:
    """Refuse to listen beyond loopback without a token."""
    if not is_loopback(host) and not token:
        raise ServiceRefused(
            f"refusing to listen on {host} without a token: set ${TOKEN_ENV} or pass --token-file "
            "(or listen on 127.0.0.1)"
        )
