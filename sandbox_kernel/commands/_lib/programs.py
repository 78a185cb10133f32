"""Finding and running programs as a program runner does (env, timeout, time; which):
PATH lookup over the VFS and GNU's 126/127 statuses."""
from __future__ import annotations

import stat

from ...vfs import normpath
from ..registry import CommandContext, lookup
from .quoting import quote


def find_executable(ctx: CommandContext, name: str, path_var: str | None = None) -> list[str]:
    """Every PATH match for ``name`` in the VFS (regular file with an execute bit)."""
    if "/" in name:
        return [name] if is_executable(ctx, name) else []
    path_var = ctx.env.get("PATH", "/usr/bin:/bin") if path_var is None else path_var
    found = []
    for d in path_var.split(":"):
        candidate = f"{d or '.'}/{name}" if d != "/" else f"/{name}"
        if is_executable(ctx, candidate):
            found.append(candidate)
    return found


def is_executable(ctx: CommandContext, path: str) -> bool:
    try:
        st = ctx.fs.stat(path, cwd=ctx.cwd)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and bool(st.st_mode & 0o111)


async def run_command(ctx: CommandContext, argv: list[str], env: dict | None = None,
                      cwd: str | None = None, stdin=None, stdout=None, stderr=None,
                      failure: str = "") -> int:
    """Run argv like a program runner (env, timeout, time): GNU's 127 message when the
    command does not exist, 126 when it is not executable (``failure`` prefixes it, e.g.
    timeout's "failed to run command ")."""
    name = argv[0]
    if lookup(name) is None or "/" in name:
        path_var = (env if env is not None else ctx.env).get("PATH", "/usr/bin:/bin")
        if "/" in name:
            full = ctx.resolve(name) if cwd is None else normpath(name, cwd)
            if not ctx.fs.exists(full):
                await ctx.error(f"{failure}{quote(name, 'locale')}: No such file or directory")
                return 127
            if not is_executable(ctx, full):
                await ctx.error(f"{failure}{quote(name, 'locale')}: Permission denied")
                return 126
        elif not find_executable(ctx, name, path_var):
            await ctx.error(f"{failure}{quote(name, 'locale')}: No such file or directory")
            return 127
    saved_cwd = ctx.cwd
    if cwd is not None:
        ctx.cwd = cwd
    try:
        return await ctx.run(list(argv), stdin=stdin, stdout=stdout, stderr=stderr, env=env)
    finally:
        ctx.cwd = saved_cwd
