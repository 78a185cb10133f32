"""Secrets the guest never sees: its environment holds a placeholder, and the egress proxy puts
the real value into the headers of requests to that secret's hosts only.

Values are only ever bytes in this process. Responses from a host that got a value are
searched for it and have it masked (a backstop against hosts that reflect request headers);
the admin should still list only hosts that do not.
"""
from __future__ import annotations

import base64
import binascii
import secrets as random_tokens
from dataclasses import dataclass, field
from typing import Iterable

from ..netpolicy import AllowRule
from ..policy import Secret

MASK = b"*"
#: A held-back tail this long that starts a value counts as the value's start: masked when the
#: response pauses there (shorter ones are far more likely an accident and pass).
MASK_PREFIX = 4


@dataclass
class ActiveSecret:
    name: str
    rules: list[AllowRule]
    placeholder: bytes
    value: bytes = field(repr=False)

    def applies(self, host: str, port: int) -> bool:
        return any(rule.matches(host, port) for rule in self.rules)


class SecretInjector:
    """The secrets of one kernel with their placeholders (random per kernel)."""

    def __init__(self, secrets: Iterable[Secret]) -> None:
        self.secrets = [
            ActiveSecret(
                s.name,
                s.rules(),
                f"sandbox-secret-{s.name}-{random_tokens.token_hex(12)}".encode(),
                s.value.encode("ascii"),
            )
            for s in secrets
            if s.value is not None
        ]

    def __bool__(self) -> bool:
        return bool(self.secrets)

    def placeholders(self) -> dict[str, str]:
        return {s.name: s.placeholder.decode() for s in self.secrets}

    def rules(self) -> list[AllowRule]:
        return [rule for s in self.secrets for rule in s.rules]

    def for_target(self, host: str, port: int) -> list[ActiveSecret]:
        return [s for s in self.secrets if s.applies(host, port)]

    @staticmethod
    def inject(
        headers: list[tuple[str, bytes]], secrets: list[ActiveSecret]
    ) -> tuple[list[tuple[str, bytes]], list[str]]:
        """Placeholders of ``secrets`` in header values replaced by the values (also inside
        Basic credentials); returns the new headers and the names put in."""
        used: list[str] = []
        out = []
        for name, value in headers:
            new = _replace(value, secrets, used)
            if name.lower() in ("authorization", "proxy-authorization") and value[:6].lower() == b"basic ":
                try:
                    decoded = base64.b64decode(value[6:].strip(), validate=True)
                except (binascii.Error, ValueError):
                    decoded = b""
                replaced = _replace(decoded, secrets, used)
                if replaced != decoded:
                    new = value[:6] + base64.b64encode(replaced)
            out.append((name, new))
        return out, used

    @staticmethod
    def scrubber(secrets: list[ActiveSecret]) -> "Scrubber":
        return Scrubber([s.value for s in secrets])


def _replace(value: bytes, secrets: list[ActiveSecret], used: list[str]) -> bytes:
    for s in secrets:
        if s.placeholder in value:
            value = value.replace(s.placeholder, s.value)
            if s.name not in used:
                used.append(s.name)
    return value


class Scrubber:
    """Masks secret values in a byte stream (same length, so HTTP framing stays intact), also
    across chunk boundaries: a tail that could start a value is held back until more comes."""

    def __init__(self, values: list[bytes]) -> None:
        self.values = [v for v in values if v]
        self.held = b""

    def feed(self, data: bytes) -> bytes:
        buf = self.held + data
        for value in self.values:
            if value in buf:
                buf = buf.replace(value, MASK * len(value))
        keep = self._value_start(buf)
        self.held = buf[len(buf) - keep:] if keep else b""
        return buf[:len(buf) - keep]

    def flush(self) -> bytes:
        """The held tail when the stream ends or pauses: masked if it is a value's start."""
        held, self.held = self.held, b""
        return MASK * len(held) if len(held) >= MASK_PREFIX else held

    @property
    def pending(self) -> bool:
        return bool(self.held)

    def _value_start(self, buf: bytes) -> int:
        """Length of the longest tail of ``buf`` that is a proper prefix of a value."""
        best = 0
        for value in self.values:
            start = max(0, len(buf) - len(value) + 1)
            while True:
                i = buf.find(value[:1], start)
                if i < 0:
                    break
                if value.startswith(buf[i:]):
                    best = max(best, len(buf) - i)
                    break
                start = i + 1
        return best
