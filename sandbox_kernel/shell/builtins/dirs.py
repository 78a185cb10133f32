"""The working directory and the directory stack: cd, pwd, dirs, pushd, popd."""
from __future__ import annotations

import errno
import os

from ...lazy import TYPE_CHECKING
from ...vfs import FSError, normpath
from ..state import ShellError
from .args import usage_error
from .output import err, out, write_or_fail
from .registry import builtin

if TYPE_CHECKING:
    from typing import Awaitable
    from ..api import Fds, ShellAPI


@builtin("cd", usage="cd [-L|[-P [-e]] [-@]] [dir]", text="""
Change the shell working directory to DIR (default $HOME). `cd -' goes to $OLDPWD.
  -L  follow symbolic links logically (default)
  -P  use the physical directory structure""", sync=True)
def b_cd(sh: ShellAPI, argv: list[str], fds: Fds) -> int | Awaitable[int]:
    """``cd DIR`` to a directory it may enter, without a coroutine; everything else (options,
    ``-``, CDPATH, errors) in ``cd_async``."""
    if len(argv) == 2:
        target = argv[1]
        if target and target[0] != "-" and ".." not in target and (target[0] == "/" or not sh.get_scalar("CDPATH")):
            path = logical_path(target, sh.cwd)
            try:
                problem = sh.fs.enterable(path)
            except FSError:
                problem = True
            if not problem:
                _enter(sh, path)
                return 0
    return cd_async(sh, argv, fds)


def logical_path(target: str, cwd: str) -> str:
    """Where ``cd TARGET`` goes from ``cwd`` without following symlinks: normalised, except
    that exactly two leading slashes stay (POSIX leaves ``//`` to the implementation; bash
    keeps it)."""
    full = target if target.startswith("/") else cwd + "/" + target
    path = normpath(full)
    if full.startswith("//") and not full.startswith("///"):
        return "/" + path
    return path


def _dotdot_missing(sh: ShellAPI, target: str) -> bool:
    """Whether a ``..`` of TARGET follows a name that is no directory (bash checks each one
    as it canonicalises the path: ``cd nonexistent/..`` fails)."""
    full = target if target.startswith("/") else sh.cwd + "/" + target
    parts = full.split("/")
    for i, part in enumerate(parts):
        if part == ".." and i > 0 and not sh.fs.is_dir(normpath("/".join(parts[:i]) or "/")):
            return True
    return False


def _enter(sh: ShellAPI, path: str) -> None:
    old = sh.cwd
    sh.cwd = path
    sh.assign_scalar("OLDPWD", old, False)
    sh.assign_scalar("PWD", path, False)


async def cd_async(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    args = argv[1:]
    physical = False
    while args and args[0].startswith("-") and args[0] not in ("-", "--") and len(args[0]) > 1:
        for c in args[0][1:]:
            if c == "P":
                physical = True
            elif c == "L":
                physical = False
            elif c in "e@":
                pass
            else:
                await err(sh, fds, argv[0], f"-{c}: invalid option")
                await sh.err(fds, "cd: usage: cd [-L|[-P [-e]] [-@]] [dir]\n")
                return 2
        args = args[1:]
    if args and args[0] == "--":
        args = args[1:]
    if len(args) > 1:
        await err(sh, fds, argv[0], "too many arguments")
        return 1
    print_dir = False
    if not args:
        target = sh.get_scalar("HOME")
        if target is None:
            await err(sh, fds, argv[0], "HOME not set")
            return 1
    else:
        target = args[0]
        if target == "-":
            target = sh.get_scalar("OLDPWD")
            if target is None:
                await err(sh, fds, argv[0], "OLDPWD not set")
                return 1
            print_dir = True
    if target == "":
        return 0
    candidates = [target]
    cdpath = sh.get_scalar("CDPATH")
    if cdpath and not target.startswith(("/", "./", "../")) and target not in (".", ".."):
        candidates = [normpath(target, d or ".") if d else target for d in cdpath.split(":")] + [target]
    for cand in candidates:
        path = logical_path(cand, sh.cwd)
        try:
            if ".." in cand and _dotdot_missing(sh, cand):
                raise FSError(errno.ENOENT, cand)
            problem = sh.fs.enterable(path)
        except FSError as e:
            if cand is candidates[-1]:
                await err(sh, fds, argv[0], f"{target}: {e.strerror}")
                return 1
            continue
        if problem:
            await err(sh, fds, argv[0], f"{target}: {os.strerror(problem)}")
            return 1
        if physical:
            path = sh.fs.realpath(path)
        _enter(sh, path)
        if print_dir or (cand is not candidates[-1] and cand != target):
            await out(fds, path + "\n")
        return 0
    return 1


@builtin("pwd", usage="pwd [-LP]", text="""
Print the name of the current working directory.
  -L  print the value of $PWD if it names the current working directory (default)
  -P  print the physical directory, without any symbolic links""")
async def b_pwd(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    physical = False
    for a in argv[1:]:
        if a == "-P":
            physical = True
        elif a == "-L":
            physical = False
        elif a.startswith("-"):
            await err(sh, fds, "pwd", f"{a[:2]}: invalid option")
            await sh.err(fds, "pwd: usage: pwd [-LP]\n")
            return 2
    path = sh.cwd
    if physical:
        try:
            path = sh.fs.realpath(path)
        except FSError:
            pass
    return await write_or_fail(sh, fds, "pwd", path + "\n")


def _dirs_list(sh: ShellAPI) -> list[str]:
    """The stack as `dirs` shows it: the working directory first."""
    return [sh.cwd] + list(reversed(sh.dirstack))


def _set_dirs(sh: ShellAPI, entries: list[str]) -> None:
    sh.dirstack = list(reversed(entries[1:]))


def _tilde_path(sh: ShellAPI, p: str) -> str:
    home = sh.get_scalar("HOME") or ""
    if home and (p == home or p.startswith(home + "/")):
        return "~" + p[len(home):]
    return p


def _stack_index(sh: ShellAPI, name: str, word: str, size: int) -> int:
    """The position ``+N`` (from the left of `dirs`) or ``-N`` (from the right) names."""
    digits = word[1:]
    if word[:1] not in "+-" or not digits.isdigit():
        raise usage_error(name, f"{word}: invalid number")
    n = int(digits)
    if n >= size:
        shown = digits if name == "dirs" else word
        raise ShellError(f"{name}: {shown}: directory stack index out of range"
                         if size > 1 else f"{name}: directory stack empty", 1)
    return n if word[0] == "+" else size - 1 - n


def _dir_operands(argv: list[str]) -> tuple[set[str], list[str]]:
    """Letters and operands of the directory-stack builtins: ``-N``/``+N`` are operands
    and any other word after the options is one too."""
    flags: set[str] = set()
    args = []
    rest = argv[1:]
    while rest:
        word = rest.pop(0)
        if word == "--":
            args += rest
            break
        if len(word) > 1 and word[0] == "-" and word[1:].isalpha():
            flags.update(word[1:])
        else:
            args.append(word)
    return flags, args


@builtin("dirs", usage="dirs [-clpv] [+N] [-N]", text="""
Display the list of currently remembered directories (added with pushd).
  -c  clear the directory stack
  -l  do not abbreviate the home directory with ~
  -p  print one entry per line
  -v  print one entry per line, with its position
  +N  show the Nth entry counting from the left of the list shown by dirs (from 0)
  -N  show the Nth entry counting from the right""")
async def b_dirs(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    flags, args = _dir_operands(argv)
    for c in sorted(flags - set("clpv")):
        raise usage_error("dirs", f"-{c}: invalid number")
    for a in args:
        if a[:1] not in "+-":
            raise usage_error("dirs", f"{a}: invalid option")
    if "c" in flags:
        sh.dirstack = []  # (a fork shares the list)
        return 0
    items = _dirs_list(sh)
    if args:
        items = [items[_stack_index(sh, "dirs", args[-1], len(items))]]
    if "l" not in flags:
        items = [_tilde_path(sh, p) for p in items]
    if "v" in flags:
        await out(fds, "".join(f"{i:2d}  {p}\n" for i, p in enumerate(items)))
    elif "p" in flags:
        await out(fds, "".join(p + "\n" for p in items))
    else:
        await out(fds, " ".join(items) + "\n")
    return 0


async def _cd_to(sh: ShellAPI, fds: Fds, name: str, target: str) -> int:
    return await cd_async(sh, [name, "--", target], fds)


@builtin("pushd", usage="pushd [-n] [+N | -N | dir]", text="""
Add a directory to the top of the directory stack and cd to it; without arguments, swap the
top two directories.
  -n  add the directory to the stack without changing to it
  +N  rotate the stack so that the Nth directory (from the left of `dirs', from 0) is on top
  -N  rotate the stack so that the Nth directory from the right is on top""")
async def b_pushd(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    flags, args = _dir_operands(argv)
    for c in sorted(flags - {"n"}):
        raise usage_error("pushd", f"-{c}: invalid number")
    if len(args) > 1:
        await err(sh, fds, "pushd", "too many arguments")
        return 1
    items = _dirs_list(sh)
    if not args or args[0][:1] in "+-" and args[0][1:].isdigit():
        if len(items) < 2 and not args:
            await err(sh, fds, "pushd", "no other directory")
            return 1
        n = _stack_index(sh, "pushd", args[0], len(items)) if args else 1
        rotated = items[n:] + items[:n] if args else [items[1], items[0]] + items[2:]
        if "n" not in flags:
            status = await _cd_to(sh, fds, "pushd", rotated[0])
            if status:
                return status
        _set_dirs(sh, [sh.cwd] + rotated[1:] if "n" not in flags else items)
    elif "n" in flags:
        _set_dirs(sh, [items[0], normpath(args[0], sh.cwd)] + items[1:])
    else:
        status = await _cd_to(sh, fds, "pushd", args[0])
        if status:
            return status
        _set_dirs(sh, [sh.cwd] + items)
    return await b_dirs(sh, ["dirs"], fds)


@builtin("popd", usage="popd [-n] [+N | -N]", text="""
Remove the top entry from the directory stack and cd to the new top.
  -n  remove the entry without changing directory
  +N  remove the Nth entry counting from the left of `dirs' (from 0)
  -N  remove the Nth entry counting from the right""")
async def b_popd(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    flags, args = _dir_operands(argv)
    for c in sorted(flags - {"n"}):
        raise usage_error("popd", f"-{c}: invalid number")
    for a in args:
        if a[:1] not in "+-":
            raise usage_error("popd", f"{a}: invalid argument")
    items = _dirs_list(sh)
    if len(items) < 2:
        await err(sh, fds, "popd", "directory stack empty")
        return 1
    n = _stack_index(sh, "popd", args[-1], len(items)) if args else 0
    if n == 0 and "n" in flags:
        n = 1
    del items[n]
    if n == 0:
        status = await _cd_to(sh, fds, "popd", items[0])
        if status:
            return status
        items[0] = sh.cwd
    _set_dirs(sh, items)
    return await b_dirs(sh, ["dirs"], fds)
