"""Helpers shared by the file commands: GNU-style name quoting, mode strings, owners, sizes."""
from __future__ import annotations

import stat as st

from ..vfs import FSError

# Characters that make GNU tools (gnulib "shell-escape" quoting) quote a file name.
_SHELL_SPECIAL = set(" \t!\"$&'()*;<>?[\\]^`{|}=:")
_DOUBLE_QUOTE_UNSAFE = set("\"$`\\!")
_C_ESCAPES = {7: "a", 8: "b", 9: "t", 10: "n", 11: "v", 12: "f", 13: "r"}


def _is_control(ch: str) -> bool:
    return ord(ch) < 0x20 or ord(ch) == 0x7F


def _needs_quotes(name: str) -> bool:
    if not name:
        return True
    if name[0] in "#~":
        return True
    return any(ch in _SHELL_SPECIAL or _is_control(ch) for ch in name)


def quote(name: str, always: bool = True) -> str:
    """Quote a file name like GNU diagnostics do: ``'a b'``, ``"a'b"``, ``'a'$'\\n''b'``.

    ``always=False`` leaves names that need no quoting bare (cat, rm's ``x: ...`` forms)."""
    if not _needs_quotes(name):
        return f"'{name}'" if always else name
    if not any(_is_control(ch) for ch in name):
        if "'" not in name:
            return f"'{name}'"
        if not any(ch in _DOUBLE_QUOTE_UNSAFE for ch in name):
            return f'"{name}"'
    parts = ["'"]
    for i, ch in enumerate(name):
        if ch == "'":
            parts.append("'\\''")
        elif _is_control(ch):
            code = ord(ch)
            esc = _C_ESCAPES.get(code) or f"{code:03o}"
            parts.append(f"'$'\\{esc}'")
            if i + 1 < len(name):
                parts.append("'")
            else:
                return "".join(parts)
        else:
            parts.append(ch)
    parts.append("'")
    return "".join(parts)


def quote_if_needed(name: str) -> str:
    return quote(name, always=False)


def strerror(exc: OSError) -> str:
    return exc.strerror or str(exc)


# ----------------------------------------------------------------------------- modes
_TYPE_CHARS = ((st.S_ISDIR, "d"), (st.S_ISLNK, "l"), (st.S_ISCHR, "c"), (st.S_ISBLK, "b"),
               (st.S_ISFIFO, "p"), (st.S_ISSOCK, "s"))


def mode_string(mode: int) -> str:
    """``drwxr-xr-x`` like ls -l and stat %A (setuid/setgid/sticky included)."""
    kind = "-"
    for test, ch in _TYPE_CHARS:
        if test(mode):
            kind = ch
            break
    chars = []
    for shift, special, special_ch in ((6, st.S_ISUID, "s"), (3, st.S_ISGID, "s"), (0, st.S_ISVTX, "t")):
        bits = (mode >> shift) & 7
        chars.append("r" if bits & 4 else "-")
        chars.append("w" if bits & 2 else "-")
        if mode & special:
            chars.append(special_ch if bits & 1 else special_ch.upper())
        else:
            chars.append("x" if bits & 1 else "-")
    return kind + "".join(chars)


def file_type_name(mode: int, size: int = 1) -> str:
    """stat's %F: ``regular file``, ``regular empty file``, ``directory``, ``symbolic link``..."""
    if st.S_ISREG(mode):
        return "regular file" if size else "regular empty file"
    if st.S_ISDIR(mode):
        return "directory"
    if st.S_ISLNK(mode):
        return "symbolic link"
    if st.S_ISCHR(mode):
        return "character special file"
    if st.S_ISBLK(mode):
        return "block special file"
    if st.S_ISFIFO(mode):
        return "fifo"
    if st.S_ISSOCK(mode):
        return "socket"
    return "weird file"


# ----------------------------------------------------------------------------- owners
def _read_db(fs, path: str) -> dict[int, str]:
    names: dict[int, str] = {}
    try:
        text = fs.read_text(path)
    except (FSError, OSError):
        return names
    for line in text.splitlines():
        fields = line.split(":")
        if len(fields) >= 3 and fields[2].isdigit():
            names.setdefault(int(fields[2]), fields[0])
    return names


def user_name(fs, uid: int) -> str:
    """Name of ``uid`` from the sandbox's /etc/passwd (the number when unknown)."""
    return _read_db(fs, "/etc/passwd").get(uid, str(uid))


def group_name(fs, gid: int) -> str:
    return _read_db(fs, "/etc/group").get(gid, str(gid))


def user_id(fs, name: str) -> int | None:
    """uid of a user name or number, None when unknown."""
    if name.isdigit():
        return int(name)
    for uid, n in _read_db(fs, "/etc/passwd").items():
        if n == name:
            return uid
    return None


def group_id(fs, name: str) -> int | None:
    if name.isdigit():
        return int(name)
    for gid, n in _read_db(fs, "/etc/group").items():
        if n == name:
            return gid
    return None


# ----------------------------------------------------------------------------- sizes
def human_size(n: float, si: bool = False) -> str:
    """GNU ``-h`` rendering: 1023, 1.0K, 9.9K, 10K, 1.5M (rounded up, like ls/du/df)."""
    import math

    base = 1000 if si else 1024
    if n < base:
        return str(int(n))
    units = "kMGTPE" if si else "KMGTPE"
    value = float(n)
    for unit in units:
        value /= base
        if value < base or unit == units[-1]:
            if value < 10:
                shown = math.ceil(value * 10 - 1e-9) / 10
                if shown >= 10:
                    return f"{int(shown)}{unit}"
                return f"{shown:.1f}{unit}"
            shown = math.ceil(value - 1e-9)
            if shown >= base and unit != units[-1]:
                continue
            return f"{int(shown)}{unit}"
    return str(int(n))


def parse_size(text: str) -> int | None:
    """``10``, ``10K``, ``1M``, ``2KB``, ``3KiB`` (truncate, du thresholds); None if invalid."""
    import re

    m = re.fullmatch(r"(\d+)([KMGTPEZY]?)(iB|B)?", text, re.I)
    if not m:
        return None
    num, unit, suffix = int(m.group(1)), m.group(2).upper(), m.group(3)
    if not unit:
        return None if suffix else num
    power = "KMGTPEZY".index(unit) + 1
    base = 1000 if suffix == "B" else 1024
    return num * base ** power


def join_path(base: str, name: str) -> str:
    """``base/name`` without doubling a trailing slash (``/`` + ``x`` -> ``/x``)."""
    if base.endswith("/"):
        return base + name
    return base + "/" + name


# ----------------------------------------------------------------------------- time
def local_tz(env: dict | None):
    """The tzinfo named by ``TZ`` in the command's environment (UTC when unset/unknown)."""
    import datetime as _dt

    name = (env or {}).get("TZ", "") or "UTC"
    if name.startswith(":"):
        name = name[1:]
    if name in ("UTC", "UTC0", "GMT", "Z", "UTC+0", "GMT0"):
        return _dt.timezone.utc
    try:
        from zoneinfo import ZoneInfo

        return ZoneInfo(name)
    except Exception:
        return _dt.timezone.utc


def local_datetime(ts: float, env: dict | None):
    import datetime as _dt

    return _dt.datetime.fromtimestamp(ts, local_tz(env))


def full_timestamp(ts: float, env: dict | None) -> str:
    """``2024-01-02 03:04:05.123456789 +0000`` (stat %y, ls --full-time)."""
    dt = local_datetime(ts, env)
    nanos = int(round((ts - int(ts)) * 1e9)) if ts >= 0 else 0
    if nanos >= 1_000_000_000:
        nanos = 999_999_999
    return dt.strftime("%Y-%m-%d %H:%M:%S") + f".{nanos:09d} " + dt.strftime("%z")
