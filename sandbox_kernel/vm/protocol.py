"""The host<->guest agent wire format (specified in guest/README.md, mirrored in guest/agent/agent.c).

A frame is a 12-byte header ``b"VM" version:u8 type:u8 id:u32 length:u32`` (big-endian)
followed by ``length`` bytes. Request payloads are TLV fields ``tag:u16 length:u32 value``;
stdout/stderr/data payloads are raw bytes. Requests are validated here before they are sent
(the agent validates again).
"""
from __future__ import annotations

import struct
from typing import Iterable

from ..guest.build import USER_UID

MAGIC = b"VM"
VERSION = 2
HEADER = struct.Struct(">2sBBII")
MAX_PAYLOAD = (1 << 20) + 65536
CHUNK = 1 << 20
MAX_PATH = 4096
MAX_ARGS = 4096

# requests (host -> guest)
(HELLO, EXEC, STDIN, SIGNAL, READ, WRITE, LIST, STAT, MKDIR, REMOVE, SYNC, SHUTDOWN, RESIZE, CONNECT, LISTEN,
 CREDIT) = range(1, 17)
# answers (guest -> host)
READY, PONG, STDOUT, STDERR, EXIT, DATA, ENTRIES, OK, ERROR, STDIN_ACK, ACCEPT, STDIN_WANTED = range(64, 76)
#: ids the agent gives to streams it accepted; the host's own ids stay below
GUEST_ID_BIT = 0x80000000

# fields
(T_PATH, T_ARG, T_ENV, T_CWD, T_DATA, T_OFFSET, T_LENGTH, T_TIMEOUT_MS, T_OUTPUT_LIMIT, T_SIGNAL,
 T_FLAGS, T_MODE, T_MTIME_NS, T_TIME_NS, T_SEED, T_ERRNO, T_MESSAGE, T_EXIT_KIND, T_EXIT_CODE,
 T_NAME, T_SIZE, T_TYPE, T_TARGET, T_VERSION, T_UPTIME_NS, T_PID, T_PORT, T_ROWS, T_COLS,
 T_PIDS_MAX, T_MEMORY_MAX, T_OOM_KILLS, T_FORKS_REFUSED, T_UID, T_GID) = range(1, 36)
INT_TAGS = {T_OFFSET, T_LENGTH, T_TIMEOUT_MS, T_OUTPUT_LIMIT, T_SIGNAL, T_FLAGS, T_MODE,
            T_MTIME_NS, T_TIME_NS, T_ERRNO, T_EXIT_KIND, T_EXIT_CODE, T_SIZE, T_TYPE, T_VERSION,
            T_UPTIME_NS, T_PID, T_PORT, T_ROWS, T_COLS, T_PIDS_MAX, T_MEMORY_MAX, T_OOM_KILLS,
            T_FORKS_REFUSED, T_UID, T_GID}

# exit kinds
EXITED, SIGNALED, TIMED_OUT, OUTPUT_LIMIT = 1, 2, 3, 4
# entry types
TYPE_FILE, TYPE_DIR, TYPE_SYMLINK, TYPE_OTHER = 1, 2, 3, 4
TYPE_NAMES = {TYPE_FILE: "file", TYPE_DIR: "dir", TYPE_SYMLINK: "symlink", TYPE_OTHER: "other"}
# flags
EXEC_STDIN, EXEC_PTY, EXEC_STDIN_DEMAND = 1, 2, 4
#: the command's processes may outlive it (daemons); without it the agent kills its whole
#: cgroup when it ends and empties /dev/shm once no command runs
EXEC_KEEP = 8
SIGNAL_WHOLE_COMMAND = 1
WRITE_CREATE, WRITE_TRUNCATE, WRITE_PARENTS = 1, 2, 4
RECURSIVE = 1
#: CREDIT's FLAGS: the host reads no more of this connection, the agent closes it
CREDIT_CLOSE = 1


#: the guest's unprivileged user ``user`` (uid, gid): owns /workspace and /home/user, runs
#: ``%%vm`` cells unless they ask for root, and is who the workspace sync acts as
GUEST_USER = (USER_UID, USER_UID)


class ProtocolError(ValueError):
    """A request that must not be sent, or an answer that makes no sense."""


class GuestInputError(ProtocolError):
    """A path, argument, environment entry or limit the agent must not be sent (the one
    error of the host-side validation, ``guestinput``); the message says what and why."""


class MalformedReply(ProtocolError):
    """The agent sent something the protocol does not allow: it is broken or compromised."""


def frame(type_: int, req_id: int, payload: bytes = b"") -> bytes:
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    return HEADER.pack(MAGIC, VERSION, type_, req_id, len(payload)) + payload


def field(tag: int, value: bytes | str | int) -> bytes:
    if isinstance(value, int):
        value = struct.pack(">Q", value & 0xFFFFFFFFFFFFFFFF)
    elif isinstance(value, str):
        value = value.encode("utf-8", "surrogateescape")
    return struct.pack(">HI", tag, len(value)) + value


def fields(items: Iterable[tuple[int, bytes | str | int]]) -> bytes:
    return b"".join(field(tag, value) for tag, value in items)


def parse_fields(payload: bytes) -> list[tuple[int, bytes | int]]:
    out: list[tuple[int, bytes | int]] = []
    off = 0
    while off < len(payload):
        if len(payload) - off < 6:
            raise MalformedReply("truncated field header")
        tag, n = struct.unpack_from(">HI", payload, off)
        off += 6
        if n > len(payload) - off:
            raise MalformedReply("field length exceeds payload")
        value = payload[off:off + n]
        off += n
        if tag in INT_TAGS:
            if n != 8:
                raise MalformedReply(f"integer field {tag} has {n} bytes")
            ival = struct.unpack(">Q", value)[0]
            if tag == T_EXIT_CODE and ival >= 1 << 63:
                ival -= 1 << 64
            out.append((tag, ival))
        else:
            out.append((tag, value))
    return out


def field_map(payload: bytes) -> dict[int, bytes | int]:
    return dict(parse_fields(payload))


def user_fields(user: tuple[int, int] | None) -> list[tuple[int, int]]:
    """UID and GID fields: the agent acts as that user (exec: runs as it; file requests:
    permission checks and ownership of what is created). None: as root."""
    if user is None:
        return []
    uid, gid = user
    if not (0 <= uid < 1 << 31 and 0 <= gid < 1 << 31):
        raise ProtocolError("uid and gid must be 0..2^31-1")
    return [(T_UID, uid), (T_GID, gid)]


def check_path(path: str) -> bytes:
    """A guest path as the agent accepts it: absolute, no NUL, no ``..``, at most 4096 bytes."""
    if not isinstance(path, str):
        raise GuestInputError(f"guest path must be a string, not {type(path).__name__}")
    raw = path.encode("utf-8", "surrogateescape")
    shown = path[:80] + ("..." if len(path) > 80 else "")
    if not raw.startswith(b"/"):
        raise GuestInputError(f"guest path must be absolute: {shown!r}")
    if b"\0" in raw:
        raise GuestInputError(f"guest path contains a NUL byte: {shown!r}")
    if b".." in raw.split(b"/"):
        raise GuestInputError(f"guest path must not contain '..': {shown!r}")
    if len(raw) > MAX_PATH:
        raise GuestInputError(f"guest path longer than {MAX_PATH} bytes: {shown!r}")
    return raw


def check_words(words: list[str], what: str) -> list[bytes]:
    if len(words) > MAX_ARGS:
        raise GuestInputError(f"too many {what} ({len(words)}; at most {MAX_ARGS})")
    if not all(isinstance(w, str) for w in words):
        raise GuestInputError(f"{what} must be strings")
    raw = [w.encode("utf-8", "surrogateescape") for w in words]
    if any(b"\0" in w for w in raw):
        raise GuestInputError(f"{what} contain a NUL byte")
    return raw


def parse_entries(payload: bytes) -> list[dict]:
    """ENTRIES payload -> [{name, type, mode, size, mtime_ns, target?, errno?}, ...]
    (``errno``: a directory the agent could not list). Values are as the guest sent them:
    the caller validates them."""
    entries: list[dict] = []
    current: dict | None = None
    names = {T_TYPE: "type", T_MODE: "mode", T_SIZE: "size", T_MTIME_NS: "mtime_ns", T_TARGET: "target",
             T_ERRNO: "errno"}
    for tag, value in parse_fields(payload):
        if tag == T_NAME:
            current = {"name": value.decode("utf-8", "surrogateescape")}  # type: ignore[union-attr]
            entries.append(current)
        elif current is not None and tag in names:
            if tag == T_TARGET:
                value = value.decode("utf-8", "surrogateescape")  # type: ignore[union-attr]
            current[names[tag]] = value
    for e in entries:
        e["type"] = TYPE_NAMES.get(e.get("type", TYPE_OTHER), "other")
    return entries
