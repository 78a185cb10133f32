"""Helpers shared by the file commands: mode strings, owners, sizes, paths."""
from __future__ import annotations

import stat as st

from ...chars import isdigits
from ...vfs import FSError

# ----------------------------------------------------------------------------- modes
# The kinds of file besides regular ones: ls -l's letter, stat's %F name, ls -F's mark.
_KINDS = ((st.S_ISDIR, "d", "directory", "/"), (st.S_ISLNK, "l", "symbolic link", "@"),
          (st.S_ISCHR, "c", "character special file", ""), (st.S_ISBLK, "b", "block special file", ""),
          (st.S_ISFIFO, "p", "fifo", "|"), (st.S_ISSOCK, "s", "socket", "="))


def _kind(mode: int) -> tuple | None:
    return next((kind for kind in _KINDS if kind[0](mode)), None)


def mode_string(mode: int) -> str:
    """``drwxr-xr-x`` like ls -l and stat %A (setuid/setgid/sticky included)."""
    kind = _kind(mode)
    chars = [kind[1] if kind else "-"]
    for shift, special, special_ch in ((6, st.S_ISUID, "s"), (3, st.S_ISGID, "s"), (0, st.S_ISVTX, "t")):
        bits = (mode >> shift) & 7
        chars.append("r" if bits & 4 else "-")
        chars.append("w" if bits & 2 else "-")
        if mode & special:
            chars.append(special_ch if bits & 1 else special_ch.upper())
        else:
            chars.append("x" if bits & 1 else "-")
    return "".join(chars)


def file_type_name(mode: int, size: int = 1) -> str:
    """stat's %F: ``regular file``, ``regular empty file``, ``directory``, ``symbolic link``..."""
    if st.S_ISREG(mode):
        return "regular file" if size else "regular empty file"
    kind = _kind(mode)
    return kind[2] if kind else "weird file"


def type_indicator(mode: int, executables: bool = True) -> str:
    """ls -F's mark after a name: ``/`` ``@`` ``|`` ``=``, and ``*`` for an executable file
    unless ``executables`` is false (ls -p, --indicator-style=file-type)."""
    kind = _kind(mode)
    if kind:
        return kind[3]
    return "*" if executables and st.S_ISREG(mode) and mode & 0o111 else ""


# ----------------------------------------------------------------------------- owners
def _read_db(fs, path: str) -> dict[int, str]:
    names: dict[int, str] = {}
    try:
        text = fs.read_text(path)
    except (FSError, OSError):
        return names
    for line in text.splitlines():
        fields = line.split(":")
        if len(fields) >= 3 and isdigits(fields[2]):
            names.setdefault(int(fields[2]), fields[0])
    return names


def user_name(fs, uid: int) -> str:
    """Name of ``uid`` from the sandbox's /etc/passwd (the number when unknown)."""
    return _read_db(fs, "/etc/passwd").get(uid, str(uid))


def group_name(fs, gid: int) -> str:
    return _read_db(fs, "/etc/group").get(gid, str(gid))


def user_id(fs, name: str) -> int | None:
    """uid of a user name or number, None when unknown."""
    if isdigits(name):
        return int(name)
    for uid, n in _read_db(fs, "/etc/passwd").items():
        if n == name:
            return uid
    return None


def group_id(fs, name: str) -> int | None:
    if isdigits(name):
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




def join_path(base: str, name: str) -> str:
    """``base/name`` without doubling a trailing slash (``/`` + ``x`` -> ``/x``)."""
    if base.endswith("/"):
        return base + name
    return base + "/" + name


# ----------------------------------------------------------------------------- modes (input)
def parse_mode(text: str, mode: int, is_dir: bool = False, umask: int = 0o022) -> int | None:
    """Apply a chmod-style mode (octal or symbolic ``u+x,go-w,a=r``) to ``mode``'s permission
    bits; returns the new bits (0o7777 range) or None when ``text`` is invalid."""
    import re

    mode &= 0o7777
    if text and all(c in "01234567" for c in text):
        value = int(text, 8)
        if value > 0o7777:
            return None
        if is_dir and len(text) <= 4:
            # GNU keeps a directory's set-id bits unless a 5-digit mode (00755) clears them
            value |= mode & (st.S_ISUID | st.S_ISGID)
        return value
    if not text:
        return None
    for clause in text.split(","):
        m = re.fullmatch(r"([ugoa]*)((?:[-+=](?:[ugo]|[rwxXst]*))+)", clause)
        if not m:
            return None
        who = m.group(1)
        mask = 0
        for w in who or "a":
            mask |= {"u": 0o4700, "g": 0o2070, "o": 0o1007, "a": 0o7777}[w]
        if not who:
            mask = 0o7777 & ~umask
        for op, perms in re.findall(r"([-+=])([ugo]|[rwxXst]*)", m.group(2)):
            bits = 0
            if perms in ("u", "g", "o"):
                shift = {"u": 6, "g": 3, "o": 0}[perms]
                trio = (mode >> shift) & 7
                bits = trio << 6 | trio << 3 | trio
            else:
                for p in perms:
                    if p == "r":
                        bits |= 0o444
                    elif p == "w":
                        bits |= 0o222
                    elif p == "x":
                        bits |= 0o111
                    elif p == "X":
                        if is_dir or mode & 0o111:
                            bits |= 0o111
                    elif p == "s":
                        bits |= st.S_ISUID | st.S_ISGID
                    elif p == "t":
                        bits |= st.S_ISVTX
            bits &= mask if who else (mask | (0o7000 & bits))
            if op == "+":
                mode |= bits
            elif op == "-":
                mode &= ~bits
            else:
                clear = 0
                for w in who or "a":
                    clear |= {"u": 0o4700, "g": 0o2070, "o": 0o1007, "a": 0o7777}[w]
                if not who:
                    clear = 0o7777
                if is_dir:
                    clear &= ~(st.S_ISUID | st.S_ISGID) | (bits & 0o6000)
                mode = (mode & ~clear) | bits
    return mode & 0o7777


def umask_of(ctx) -> int:
    """The shell's umask for this command (the VFS default when run outside a shell)."""
    value = (getattr(ctx, "extra", None) or {}).get("umask")
    return ctx.fs.umask if value is None else value
