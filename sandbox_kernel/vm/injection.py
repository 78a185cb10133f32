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
    flush (the stream pausing or ending, or a response ending: ``ResponseEnds``) releases them
    unmasked unless they complete a value. So what the guest receives, and when, is the same for
    any bytes that do not hold a whole value: a host that echoes the request (a 404 page) cannot
    be used to guess a value prefix by prefix.
    """

    def __init__(self, values: list[bytes]) -> None:
        self.values = [v for v in values if v]
        self.hold = max((len(v) for v in self.values), default=1) - 1
        self.held = b""           # the held tail, as received
        self.held_mask = b""      # 1 where a held byte belongs to a value found earlier
        self.responses = ResponseEnds()

    def expect(self, method: str) -> None:
        """A request went upstream: its response comes next in turn (a HEAD's has no body)."""
        self.responses.expect(method)

    def feed(self, data: bytes) -> bytes:
        if self.responses.feed(data):  # the data ends a response: nothing of it need wait
            return self._masked_feed(data) + self.flush()
        return self._masked_feed(data)

    def _masked_feed(self, data: bytes) -> bytes:
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


class ResponseEnds:
    """Follows the framing of the HTTP/1.x responses in a stream (RFC 9112 6.3) to tell when the
    bytes so far end a response, so the Scrubber's held tail need not wait for a pause. It looks
    only at status lines, framing headers and sizes. Anything it cannot follow (an upgrade, a
    body that lasts until the close, a malformed or oversized head or chunk line) loses it for
    good: from then on only pauses flush."""

    MAX_HEAD = 64 * 1024
    MAX_LINE = 8192

    def __init__(self) -> None:
        self.state = "head"      # head | body | size | data | trailers | lost
        self.line = bytearray()  # the head or line being read
        self.left = 0            # body or chunk bytes still to come
        self.methods: list[str] = []

    def expect(self, method: str) -> None:
        if len(self.methods) < 1000:  # (pipelined requests whose answers did not come yet)
            self.methods.append(method.upper())
        else:
            self.state = "lost"

    def feed(self, data: bytes) -> bool:
        """Take ``data``; whether the stream now stands right after the end of a response."""
        if not data:
            return False
        at = 0
        while at < len(data) and self.state != "lost":
            if self.state in ("body", "data"):
                take = min(self.left, len(data) - at)
                self.left -= take
                at += take
                if not self.left:
                    self.state = "head" if self.state == "body" else "size"
                continue
            end = data.find(b"\n", at)
            piece = data[at:] if end < 0 else data[at:end + 1]
            at += len(piece)
            if len(self.line) + len(piece) > (self.MAX_HEAD if self.state == "head" else self.MAX_LINE):
                self.state, self.line = "lost", bytearray()
                break
            self.line += piece
            if self.line.endswith(b"\r\n\r\n") if self.state == "head" else self.line.endswith(b"\r\n"):
                line, self.line = bytes(self.line), bytearray()
                self._ended(line)
        return self.state == "head" and not self.line

    def _ended(self, line: bytes) -> None:
        """A complete head, chunk-size line or trailer line."""
        if self.state == "size":
            size = line.split(b";")[0].strip()
            if not size or len(size) > 16 or any(c not in b"0123456789abcdefABCDEF" for c in size):
                self.state = "lost"
            elif int(size, 16) == 0:
                self.state = "trailers"
            else:
                self.state, self.left = "data", int(size, 16) + 2
        elif self.state == "trailers":
            if line == b"\r\n":
                self.state = "head"
        else:
            self._head(line)

    def _head(self, head: bytes) -> None:
        lines = head[:-4].split(b"\r\n")
        status = lines[0].split(b" ", 2)
        if len(status) < 2 or not status[0].startswith(b"HTTP/1.") or not (status[1].isdigit() and len(status[1]) == 3):
            self.state = "lost"
            return
        code = int(status[1])
        if code == 101 or (code >= 200 and not self.methods):
            self.state = "lost"  # a switch of protocols, or a response to no request
            return
        if code < 200:
            return  # an interim response: the final one follows
        method = self.methods.pop(0)
        fields = [line.partition(b":") for line in lines[1:]]
        encodings = [v.strip().lower() for n, _, v in fields if n.strip().lower() == b"transfer-encoding"]
        lengths = {v.strip() for n, _, v in fields if n.strip().lower() == b"content-length"}
        if method == "HEAD" or code in (204, 304):
            return
        if encodings:
            self.state = "size" if encodings[-1].split(b",")[-1].strip() == b"chunked" else "lost"
        elif len(lengths) == 1 and (length := lengths.pop()).isdigit() and len(length) <= 18:
            self.left = int(length)
            self.state = "body" if self.left else "head"
        else:
            self.state = "lost"  # a body until the close
