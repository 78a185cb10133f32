"""The working directory and the directory stack: cd, pwd, dirs, pushd, popd."""
from __future__ import annotations

from ...vfs import FSError, normpath
from .output import err, out, write_or_fail
from .registry import builtin


@builtin("cd", usage="cd [-L|[-P [-e]] [-@]] [dir]", text="""
Change the shell working directory to DIR (default $HOME). `cd -' goes to $OLDPWD.
  -L  follow symbolic links logically (default)
  -P  use the physical directory structure""")
async def b_cd(sh, argv, fds):
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
                await err(sh, fds, "cd", f"-{c}: invalid option")
                await sh.err(fds, "cd: usage: cd [-L|[-P [-e]] [-@]] [dir]\n")
                return 2
        args = args[1:]
    if args and args[0] == "--":
        args = args[1:]
    if len(args) > 1:
        await err(sh, fds, "cd", "too many arguments")
        return 1
    print_dir = False
    if not args:
        target = sh.get_scalar("HOME")
        if target is None:
            await err(sh, fds, "cd", "HOME not set")
            return 1
    else:
        target = args[0]
        if target == "-":
            target = sh.get_scalar("OLDPWD")
            if target is None:
                await err(sh, fds, "cd", "OLDPWD not set")
                return 1
            print_dir = True
    if target == "":
        return 0
    candidates = [target]
    cdpath = sh.get_scalar("CDPATH")
    if cdpath and not target.startswith(("/", "./", "../")) and target not in (".", ".."):
        candidates = [normpath(target, d or ".") if d else target for d in cdpath.split(":")] + [target]
    for cand in candidates:
        path = normpath(cand, sh.cwd)
        try:
            stat = sh.fs.stat(path)
        except FSError as e:
            if cand is candidates[-1]:
                await err(sh, fds, "cd", f"{target}: {e.strerror}")
                return 1
            continue
        if stat.type != "dir":
            await err(sh, fds, "cd", f"{target}: Not a directory")
            return 1
        if not sh.fs.access(path, 1):
            await err(sh, fds, "cd", f"{target}: Permission denied")
            return 1
        if physical:
            path = sh.fs.realpath(path)
        old = sh.cwd
        sh.cwd = path
        sh.set_var("OLDPWD", old)
        sh.set_var("PWD", path)
        if print_dir or (cand is not candidates[-1] and cand != target):
            await out(fds, path + "\n")
        return 0
    return 1


@builtin("pwd", usage="pwd [-LP]", text="""
Print the name of the current working directory.
  -L  print the value of $PWD if it names the current working directory (default)
  -P  print the physical directory, without any symbolic links""")
async def b_pwd(sh, argv, fds):
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


def _dirs_list(sh) -> list[str]:
    return [sh.cwd] + list(reversed(sh.dirstack))


def _tilde_path(sh, p: str) -> str:
    home = sh.get_scalar("HOME") or ""
    if home and (p == home or p.startswith(home + "/")):
        return "~" + p[len(home):]
    return p


@builtin("dirs", usage="dirs [-clpv]", text="""
Display the list of currently remembered directories (added with pushd).
  -c  clear the directory stack
  -l  do not abbreviate the home directory with ~
  -p  print one entry per line
  -v  print one entry per line, with its position""")
async def b_dirs(sh, argv, fds):
    flags = "".join(a[1:] for a in argv[1:] if a.startswith("-"))
    if "c" in flags:
        sh.dirstack.clear()
        return 0
    items = _dirs_list(sh)
    if "l" not in flags:
        items = [_tilde_path(sh, p) for p in items]
    if "v" in flags:
        await out(fds, "".join(f"{i:2d}  {p}\n" for i, p in enumerate(items)))
    elif "p" in flags:
        await out(fds, "".join(p + "\n" for p in items))
    else:
        await out(fds, " ".join(items) + "\n")
    return 0


@builtin("pushd", usage="pushd [dir | +N | -N]", text="Add DIR to the top of the directory stack and cd to it; without arguments, swap the top two.")
async def b_pushd(sh, argv, fds):
    args = [a for a in argv[1:] if a != "-n"]
    if not args:
        if not sh.dirstack:
            await err(sh, fds, "pushd", "no other directory")
            return 1
        target = sh.dirstack.pop()
        old = sh.cwd
        status = await b_cd(sh, ["cd", target], fds)
        if status:
            sh.dirstack.append(target)
            return status
        sh.dirstack.append(old)
    else:
        old = sh.cwd
        status = await b_cd(sh, ["cd", args[0]], fds)
        if status:
            return status
        sh.dirstack.append(old)
    return await b_dirs(sh, ["dirs"], fds)


@builtin("popd", usage="popd [+N | -N]", text="Remove the top entry from the directory stack and cd to the new top.")
async def b_popd(sh, argv, fds):
    if not sh.dirstack:
        await err(sh, fds, "popd", "directory stack empty")
        return 1
    target = sh.dirstack.pop()
    status = await b_cd(sh, ["cd", target], fds)
    if status:
        return status
    return await b_dirs(sh, ["dirs"], fds)
