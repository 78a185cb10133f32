"""The size of a Jupyter message, checked on its raw zmq frames before anything is decoded.

A frontend's message is untrusted: decoding one costs several times its size (the session copies
the JSON frames, the JSON decoder makes strings of them, a base64 payload is decoded into bytes
and copied again: a 600 MiB comm message took 2.4 GiB). ``SandboxKernel`` refuses a message
whose JSON part (header, parent header, metadata, content) is over ``MAX_JSON_BYTES``, or whose
binary buffers are over what the VFS could take (``max_buffers``), before the session decodes
it, and answers it when it can tell where to: a request gets an error reply of its type, a comm
message an ``{"event": "error"}`` on its comm (docs/comm-protocol.md).
"""
from __future__ import annotations

import hmac
import json
import re
from typing import Any, Sequence

from ...memory import size_text

#: the session's delimiter between the routing identities and the message
DELIM = b"<IDS|MSG>"
#: header + parent header + metadata + content: a comm payload's 4 MiB as base64 and room to spare
MAX_JSON_BYTES = 8 * 1024 * 1024
#: a header this large is not parsed for the reply (a real one is a few hundred bytes)
MAX_HEADER_BYTES = 64 * 1024
#: where the comm id of an oversized comm message is looked for (Jupyter frontends put it first)
COMM_ID = re.compile(rb'\A\s*\{\s*"comm_id"\s*:\s*"([0-9A-Za-z_.:-]{1,128})"')


class Oversized:
    """A refused message: why, and what is known of it (for the reply)."""

    def __init__(self, why: str, idents: list, header: dict | None, comm_id: str | None) -> None:
        self.why = why
        self.idents = idents
        self.header = header
        self.comm_id = comm_id


def length(frame: Any) -> int:
    """The bytes of one frame (a zmq.Frame, bytes or memoryview), without copying it."""
    buffer = getattr(frame, "buffer", frame)
    return memoryview(buffer).nbytes


def content_of(frame: Any, size: int) -> bytes:
    buffer = getattr(frame, "buffer", frame)
    return bytes(memoryview(buffer).cast("B")[:size])


def check(frames: Sequence[Any], max_buffers: int, auth: hmac.HMAC | None = None,
          max_json: int = MAX_JSON_BYTES) -> Oversized | None:
    """None when the message's frames are within the bounds; else what to refuse. ``auth`` (the
    session's signing key) checks the signature before anything of the message is believed."""
    at = next((i for i, frame in enumerate(frames[:64]) if length(frame) == len(DELIM)
               and content_of(frame, len(DELIM)) == DELIM), None)
    if at is None or len(frames) < at + 6:
        return None  # malformed: the session refuses it, decoding nothing big
    signature, parts, buffers = frames[at + 1], frames[at + 2:at + 6], frames[at + 6:]
    json_size = sum(length(f) for f in parts)
    buffers_size = sum(length(f) for f in buffers)
    if json_size > max_json:
        why = (f"message of {size_text(json_size)} refused: a message's JSON may take at most "
               f"{size_text(max_json)}; send smaller pieces (a VFS write takes 4M at a time)")
    elif buffers_size > max_buffers:
        why = (f"message with {size_text(buffers_size)} of buffers refused: more than the sandbox's files "
               f"could take ({size_text(max_buffers)})")
    else:
        return None
    idents = list(frames[:at])
    if auth is not None:
        mac = auth.copy()
        for part in parts:
            mac.update(getattr(part, "buffer", part))
        if not hmac.compare_digest(mac.hexdigest().encode(), content_of(signature, 256)):
            return Oversized(why, idents, None, None)  # not from our client: no reply
    header = None
    if length(parts[0]) <= MAX_HEADER_BYTES:
        try:
            header = json.loads(content_of(parts[0], MAX_HEADER_BYTES))
        except ValueError:
            header = None
    if not isinstance(header, dict) or not isinstance(header.get("msg_type"), str):
        header = None
    found = COMM_ID.match(content_of(parts[3], 512))
    return Oversized(why, idents, header, found.group(1).decode() if found else None)
