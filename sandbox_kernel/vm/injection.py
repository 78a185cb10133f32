"""Secrets the guest never sees: its environment holds a placeholder, and the egress proxy puts
the real value into the headers of requests to that secret's hosts only.

Values are only ever bytes in this process. Responses from a host that got a value are
searched for it and have whole copies masked (a backstop against hosts that reflect request
headers); the admin should still list only hosts that do not.
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
    """Masks complete secret values in a byte stream (same length, so HTTP framing stays intact),
    also across chunk boundaries.

    Nothing here depends on partial matches: the last ``len(longest value) - 1`` bytes are always
    held back, whatever they are (an occurrence split across chunks is whole in the next), and a
    flush (the stream pausing or ending) releases them unmasked unless they complete a value. So
    what the guest receives, and when, is the same for any bytes that do not hold a whole value:
    a host that echoes the request (a 404 page) cannot be used to guess a value prefix by prefix.
    """

    def __init__(self, values: list[bytes]) -> None:
        self.values = [v for v in values if v]
        self.hold = max((len(v) for v in self.values), default=1) - 1
        self.held = b""           # the held tail, as received
        self.held_mask = b""      # 1 where a held byte belongs to a value found earlier

    def feed(self, data: bytes) -> bytes:
        buf = self.held + data
        mask = bytearray(self.held_mask) + bytes(len(data))
        for value in self.values:
            at = buf.find(value)
            while at >= 0:
                mask[at:at + len(value)] = b"\x01" * len(value)
                at = buf.find(value, at + 1)
        cut = max(0, len(buf) - self.hold)
        self.held, self.held_mask = buf[cut:], bytes(mask[cut:])
        return _masked(buf[:cut], mask[:cut])

    def flush(self) -> bytes:
        """The held tail when the stream ends or pauses (masked where it completed a value)."""
        out = _masked(self.held, self.held_mask)
        self.held, self.held_mask = b"", b""
        return out

    @property
    def pending(self) -> bool:
        return bool(self.held)


def _masked(data: bytes, mask: bytes | bytearray) -> bytes:
    if b"\x01" not in mask:
        return data
    return bytes(MASK[0] if m else b for b, m in zip(data, mask))
