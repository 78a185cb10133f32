"""The shell process's creation mask and resource limits: umask, ulimit.

``ulimit`` keeps bash's soft and hard values per shell (inherited by subshells and child
shells) with the kernel's rules: a soft limit may not exceed the hard one and a hard limit may
only be lowered. The sandbox's real limits are the kernel's (``%limits``); of these values only
``-n`` is enforced (opening a file past it fails: eval/redirect.py)."""
from __future__ import annotations

from ...lazy import TYPE_CHECKING
from .args import parse_options
from .output import err, out
from .registry import builtin

if TYPE_CHECKING:
    from ..api import Fds, ShellAPI

UNLIMITED = None

#: letter -> (description, unit shown by -a, bytes per unit, soft default, hard default)
RESOURCES: dict[str, tuple[str, str, int, int | None, int | None]] = {
    "R": ("real-time non-blocking time", "microseconds", 1, UNLIMITED, UNLIMITED),
    "c": ("core file size", "blocks", 1024, 0, UNLIMITED),
    "d": ("data seg size", "kbytes", 1024, UNLIMITED, UNLIMITED),
    "e": ("scheduling priority", "", 1, 0, 0),
    "f": ("file size", "blocks", 1024, UNLIMITED, UNLIMITED),
    "i": ("pending signals", "", 1, 3646, 3646),
    "l": ("max locked memory", "kbytes", 1024, 8192 * 1024, 8192 * 1024),
    "m": ("max memory size", "kbytes", 1024, UNLIMITED, UNLIMITED),
    "n": ("open files", "", 1, 1024, 1048576),
    "p": ("pipe size", "512 bytes", 512, 8 * 512, 8 * 512),
    "q": ("POSIX message queues", "bytes", 1, 819200, 819200),
    "r": ("real-time priority", "", 1, 0, 0),
    "s": ("stack size", "kbytes", 1024, 8192 * 1024, UNLIMITED),
    "t": ("cpu time", "seconds", 1, UNLIMITED, UNLIMITED),
    "u": ("max user processes", "", 1, 3646, 3646),
    "v": ("virtual memory", "kbytes", 1024, UNLIMITED, UNLIMITED),
    "x": ("file locks", "", 1, UNLIMITED, UNLIMITED),
}
_ORDER = "Rcdefilmnpqrstuvx"
#: what the kernel's rlim_t holds (RLIM_INFINITY is the value above it)
_RLIM_MAX = 2 ** 64 - 1
#: fixed by the system: reading them works, setting them is refused
_READ_ONLY = "p"


class ResourceLimits:
    """One shell's soft and hard limits, in bytes (or the resource's own unit)."""

    __slots__ = ("soft", "hard")

    def __init__(self) -> None:
        self.soft = {k: v[3] for k, v in RESOURCES.items()}
        self.hard = {k: v[4] for k, v in RESOURCES.items()}

    def copy(self) -> "ResourceLimits":
        other = ResourceLimits.__new__(ResourceLimits)
        other.soft, other.hard = dict(self.soft), dict(self.hard)
        return other

    def open_files_exhausted(self, fds: dict) -> bool:
        """Whether opening one more file goes past ``ulimit -n`` (the lowest free descriptor
        is the one a new file gets)."""
        limit = self.soft["n"]
        if limit is None or limit > len(fds):
            return False
        lowest = next(n for n in range(len(fds) + 1) if n not in fds)
        return lowest >= limit


def _shown(value: int | None, scale: int) -> str:
    return "unlimited" if value is None else str(value // scale)


@builtin("umask", usage="umask [-p] [-S] [mode]", text="""
Display or set the file mode mask: new files get the permissions 0666 (directories 0777)
minus the bits in the mask. MODE is an octal number or a symbolic mode like chmod's (u=rwx,g=rx,o=).
  -S  makes the output symbolic
  -p  output in a form that may be reused as input""")
async def b_umask(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    opts, args = parse_options(argv, "pS")
    flags = {o for o, _ in opts}
    if not args:
        if "S" in flags:
            perms = []
            for who, shift in (("u", 6), ("g", 3), ("o", 0)):
                bits = (~sh.umask >> shift) & 7
                perms.append(who + "=" + "".join(c for c, b in (("r", 4), ("w", 2), ("x", 1)) if bits & b))
            await out(fds, ("umask -S " if "p" in flags else "") + ",".join(perms) + "\n")
        else:
            await out(fds, ("umask " if "p" in flags else "") + f"{sh.umask:04o}\n")
        return 0
    mode = args[0]
    if mode[:1].isdigit():
        if not all(c in "01234567" for c in mode) or int(mode, 8) > 0o7777:
            await err(sh, fds, "umask", f"{mode}: octal number out of range")
            return 1
        sh.umask = int(mode, 8) & 0o777
        return 0
    allowed, problem = _symbolic_umask(mode, ~sh.umask & 0o777)
    if problem:
        await err(sh, fds, "umask", problem)
        return 1
    sh.umask = ~allowed & 0o777
    return 0


def _symbolic_umask(mode: str, allowed: int) -> tuple[int, str]:
    """bash's grammar: clauses ``[ugoa]*[=+-][rwx]*`` joined by commas. Returns the new
    allowed bits and an error message ('' when the mode is valid)."""
    i = 0
    n = len(mode)
    while True:
        who = ""
        while i < n and mode[i] in "ugoa":
            who += mode[i]
            i += 1
        if i >= n or mode[i] not in "=+-":
            # at the end bash shows the string's terminating NUL byte
            return allowed, f"`{mode[i] if i < n else chr(0)}': invalid symbolic mode operator"
        op = mode[i]
        i += 1
        bits = 0
        while i < n and mode[i] in "rwx":
            bits |= {"r": 4, "w": 2, "x": 1}[mode[i]]
            i += 1
        if i < n and mode[i] != ",":
            return allowed, f"`{mode[i]}': invalid symbolic mode character"
        for w, shift in (("u", 6), ("g", 3), ("o", 0)):
            if not who or w in who or "a" in who:
                if op == "=":
                    allowed = (allowed & ~(7 << shift)) | (bits << shift)
                elif op == "+":
                    allowed |= bits << shift
                else:
                    allowed &= ~(bits << shift)
        if i >= n:
            return allowed, ""
        i += 1  # the comma: another clause must follow


@builtin("ulimit", usage="ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]", text="""
Modify shell resource limits: show or set the limit of each resource option (-f file size
when none is given). LIMIT is a number in the resource's unit, `unlimited', `soft' or `hard'.
  -S  use the soft limit (shown by default)   -H  use the hard limit (both are set by default)
  -a  show all limits
The sandbox's own limits are the kernel's (%limits in the notebook); of these values, -n
(open files) is enforced on redirections.""")
async def b_ulimit(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    opts, args = parse_options(argv, "SHa" + _ORDER)
    letters = [o for o, _ in opts if o in RESOURCES]
    soft = any(o == "S" for o, _ in opts)
    hard = any(o == "H" for o, _ in opts)
    limits = sh.resource_limits
    if any(o == "a" for o, _ in opts):
        letters = list(_ORDER)
        args = []
    if not letters:
        letters = ["f"]
    value_text = args[0] if args else None
    shown = letters[:-1] if value_text is not None else letters
    table = limits.hard if hard and not soft else limits.soft
    lines = []
    for c in shown:
        desc, unit, scale = RESOURCES[c][:3]
        shown_value = _shown(table[c], scale)
        if len(letters) > 1:
            label = f"({unit}, -{c}) " if unit else f"(-{c}) "
            lines.append(f"{desc:<20} {label:>20}{shown_value}")
        else:
            lines.append(shown_value)
    await out(fds, "".join(line + "\n" for line in lines))
    if value_text is None:
        return 0
    c = letters[-1]
    desc, _, scale = RESOURCES[c][:3]
    if value_text == "unlimited":
        value = UNLIMITED
    elif value_text in ("hard", "soft"):
        value = (limits.hard if value_text == "hard" else limits.soft)[c]
    elif value_text.isdigit():
        if int(value_text) * scale >= _RLIM_MAX:
            await err(sh, fds, "ulimit", f"{value_text}: limit out of range")
            return 1
        value = int(value_text) * scale
    else:
        await err(sh, fds, "ulimit", f"{value_text}: invalid number")
        return 1
    set_soft, set_hard = (soft or not hard), (hard or not soft)
    new_soft = value if set_soft else limits.soft[c]
    new_hard = value if set_hard else limits.hard[c]
    problem = None
    if c in _READ_ONLY or _above(new_soft, new_hard):
        problem = "Invalid argument"
    elif _above(new_hard, limits.hard[c]):
        problem = "Operation not permitted"
    if problem:
        await err(sh, fds, "ulimit", f"{desc}: cannot modify limit: {problem}")
        return 1
    # a new table: a subshell may share its parent's until it sets one (Shell.fork_waited)
    sh.resource_limits = limits = limits.copy()
    limits.soft[c], limits.hard[c] = new_soft, new_hard
    return 0


def _above(a: int | None, b: int | None) -> bool:
    """a > b where None is unlimited."""
    if a is None:
        return b is not None
    return b is not None and a > b
