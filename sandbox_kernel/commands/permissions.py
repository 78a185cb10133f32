"""chmod, chown, chgrp: a file's mode and owners."""
from __future__ import annotations

import re
import stat as st

from ..vfs import FSError
from ._lib.fsutil import (group_id, group_name, join_path, mode_string, parse_mode, umask_of,
    user_id, user_name)
from ._lib.quoting import quote, strerror
from .options import UsageError, getopt
from .registry import CommandContext, command


CHMOD_HELP = """\
Usage: chmod [OPTION]... MODE[,MODE]... FILE...
  or:  chmod [OPTION]... OCTAL-MODE FILE...
  or:  chmod [OPTION]... --reference=RFILE FILE...
Change the mode of each FILE to MODE.
With --reference, change the mode of each FILE to that of RFILE.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
      --reference=RFILE  use RFILE's mode instead of MODE values
  -R, --recursive        change files and directories recursively
      --help             display this help and exit

Each MODE is of the form '[ugoa]*([-+=]([rwxXst]*|[ugo]))+|[-+=][0-7]+'."""

_MODE_ARG = re.compile(r"-[rwxXst]*(?:[-+=,][ugoarwxXst]*)*")


def _split_mode_args(args: list[str]) -> tuple[list[str], str | None]:
    """Pull out a mode that starts with '-' (``chmod -w f``) before option parsing."""
    rest, mode = [], None
    seen_dd = False
    for a in args:
        if not seen_dd and mode is None and a != "--" and _MODE_ARG.fullmatch(a) and len(a) > 1 \
                and not set(a[1:]) <= set("Rcfv"):
            mode = a
            continue
        if a == "--":
            seen_dd = True
        rest.append(a)
    return rest, mode


async def _walk_all(ctx: CommandContext, paths: list[str], recursive: bool, visit) -> int:
    """``_walk`` each path in turn; the worst status."""
    status = 0
    for path in paths:
        status = max(status, await _walk(ctx, path, recursive, visit))
    return status


async def _walk(ctx: CommandContext, path: str, recursive: bool, visit) -> int:
    """Apply ``visit(path)`` to path and (when recursive) everything below it; symlinks met
    during the walk are not followed."""
    status = await visit(path)
    if not recursive:
        return status
    try:
        s = ctx.fs.lstat(path, ctx.cwd)
        if st.S_ISLNK(s.st_mode):
            s = ctx.fs.stat(path, ctx.cwd)
            if path.endswith("/") is False:
                return status
    except FSError:
        return status
    if not st.S_ISDIR(s.st_mode):
        return status
    try:
        names = ctx.fs.listdir(path, ctx.cwd)
    except FSError as e:
        await ctx.error(f"cannot read directory {quote(path)}: {strerror(e)}")
        return 1
    for name in names:
        child = join_path(path, name)
        try:
            cs = ctx.fs.lstat(child, ctx.cwd)
        except FSError:
            continue
        if st.S_ISLNK(cs.st_mode):
            continue
        status = max(status, await _walk(ctx, child, True, visit))
        await ctx.checkpoint()
    return status


def _mode_desc(mode: int) -> str:
    return f"{mode & 0o7777:04o} ({mode_string(mode)[1:]})"


@command("chmod", help=CHMOD_HELP)
async def chmod(ctx: CommandContext) -> int:
    args, dash_mode = _split_mode_args(ctx.args)
    opts, operands = getopt(args, "cfvR", {
        "changes": "c", "silent": "f", "quiet": "f", "verbose": "v", "recursive": "R",
        "reference=": None, "preserve-root": None, "no-preserve-root": None}, status=1)
    changes = quiet = verbose = recursive = False
    reference = None
    for key, val in opts:
        if key == "c":
            changes = True
        elif key == "f":
            quiet = True
        elif key == "v":
            verbose = True
        elif key == "R":
            recursive = True
        elif key == "reference":
            reference = val
    fs, cwd = ctx.fs, ctx.cwd
    ref_mode = None
    if reference is not None:
        try:
            ref_mode = fs.stat(reference, cwd).st_mode & 0o7777
        except FSError as e:
            await ctx.error(f"failed to get attributes of {quote(reference)}: {strerror(e)}")
            return 1
        mode_text = None
    else:
        if dash_mode is not None:
            mode_text = dash_mode
        elif operands:
            mode_text = operands.pop(0)
        else:
            raise UsageError("missing operand", 1)
    if not operands:
        if mode_text is None:
            raise UsageError("missing operand", 1)
        raise UsageError(f"missing operand after {quote(mode_text, 'locale')}", 1)
    umask = umask_of(ctx)
    if mode_text is not None and parse_mode(mode_text, 0, False, umask) is None:
        raise UsageError(f"invalid mode: {quote(mode_text, 'locale')}", 1)

    async def visit(path: str) -> int:
        try:
            s = fs.stat(path, cwd)
        except FSError as e:
            if not quiet:
                await ctx.error(f"cannot access {quote(path)}: {strerror(e)}")
            return 1
        old = s.st_mode & 0o7777
        new = ref_mode if ref_mode is not None else parse_mode(mode_text, old, st.S_ISDIR(s.st_mode), umask)
        try:
            fs.chmod(path, new, cwd)
        except FSError as e:
            if not quiet:
                await ctx.error(f"changing permissions of {quote(path)}: {strerror(e)}")
            return 1
        full_old = (s.st_mode & ~0o7777) | old
        full_new = (s.st_mode & ~0o7777) | new
        if new != old and (verbose or changes):
            await ctx.out(f"mode of {quote(path)} changed from {_mode_desc(full_old)} to {_mode_desc(full_new)}\n")
        elif verbose:
            await ctx.out(f"mode of {quote(path)} retained as {_mode_desc(full_old)}\n")
        return 0

    return await _walk_all(ctx, operands, recursive, visit)


# ============================================================================ chown / chgrp
CHOWN_HELP = """\
Usage: chown [OPTION]... [OWNER][:[GROUP]] FILE...
  or:  chown [OPTION]... --reference=RFILE FILE...
Change the owner and/or group of each FILE to OWNER and/or GROUP.
The sandbox has a single user (user, uid 1000): giving files away is not permitted.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
  -h, --no-dereference   affect symbolic links instead of any referenced file
      --reference=RFILE  use RFILE's owner and group rather than OWNER:GROUP
  -R, --recursive        operate on files and directories recursively
      --help             display this help and exit"""

CHGRP_HELP = """\
Usage: chgrp [OPTION]... GROUP FILE...
  or:  chgrp [OPTION]... --reference=RFILE FILE...
Change the group of each FILE to GROUP.
The sandbox has a single group (user, gid 1000).

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
  -h, --no-dereference   affect symbolic links instead of any referenced file
      --reference=RFILE  use RFILE's group rather than specifying a GROUP value
  -R, --recursive        operate on files and directories recursively
      --help             display this help and exit"""


@command("chown", help=CHOWN_HELP)
async def chown(ctx: CommandContext) -> int:
    return await _change_owner(ctx, is_chgrp=False)


@command("chgrp", help=CHGRP_HELP)
async def chgrp(ctx: CommandContext) -> int:
    return await _change_owner(ctx, is_chgrp=True)


async def _change_owner(ctx: CommandContext, is_chgrp: bool) -> int:
    opts, operands = getopt(ctx.args, "cfvhHLPR", {
        "changes": "c", "silent": "f", "quiet": "f", "verbose": "v", "no-dereference": "h",
        "dereference": None, "recursive": "R", "reference=": None, "from=": None,
        "preserve-root": None, "no-preserve-root": None}, status=1)
    quiet = verbose = changes = recursive = False
    follow = True
    reference = None
    for key, val in opts:
        if key == "f":
            quiet = True
        elif key == "v":
            verbose = True
        elif key == "c":
            changes = True
        elif key == "R":
            recursive = True
        elif key == "h":
            follow = False
        elif key == "reference":
            reference = val
    fs, cwd = ctx.fs, ctx.cwd
    uid = gid = -1
    spec = None
    if reference is not None:
        try:
            rs = fs.stat(reference, cwd)
        except FSError as e:
            await ctx.error(f"failed to get attributes of {quote(reference)}: {strerror(e)}")
            return 1
        gid = rs.st_gid
        if not is_chgrp:
            uid = rs.st_uid
    else:
        if not operands:
            raise UsageError("missing operand", 1)
        spec = operands.pop(0)
        if is_chgrp:
            gid_found = group_id(fs, spec) if spec else -1
            if gid_found is None:
                await ctx.error(f"invalid group: {quote(spec, 'locale')}")
                return 1
            gid = gid_found
        else:
            user_part, sep, group_part = spec.partition(":")
            if not sep and "." in spec and user_id(fs, spec) is None:
                user_part, sep, group_part = spec.partition(".")
            if user_part:
                found = user_id(fs, user_part)
                if found is None:
                    await ctx.error(f"invalid user: {quote(spec, 'locale')}")
                    return 1
                uid = found
            if group_part:
                found = group_id(fs, group_part)
                if found is None:
                    await ctx.error(f"invalid group: {quote(spec, 'locale')}")
                    return 1
                gid = found
            elif sep and user_part:
                # "user:" means the user's login group
                gid = 1000 if uid == 1000 else 0 if uid == 0 else gid
    if not operands:
        raise UsageError(f"missing operand after {quote(spec, 'locale')}" if spec else "missing operand", 1)

    async def visit(path: str) -> int:
        try:
            s = fs.stat(path, cwd, follow=follow)
        except FSError as e:
            if not quiet:
                await ctx.error(f"cannot access {quote(path)}: {strerror(e)}")
            return 1
        try:
            fs.chown(path, uid, gid, cwd, follow=follow)
        except FSError as e:
            if not quiet:
                what = "group" if is_chgrp or uid == -1 else "ownership"
                await ctx.error(f"changing {what} of {quote(path)}: {strerror(e)}")
            return 1
        changed = (uid not in (-1, s.st_uid)) or (gid not in (-1, s.st_gid))
        if verbose or (changes and changed):
            what = "group" if is_chgrp else "ownership"
            new_desc = group_name(fs, gid if gid != -1 else s.st_gid) if is_chgrp else \
                f"{user_name(fs, uid if uid != -1 else s.st_uid)}:{group_name(fs, gid if gid != -1 else s.st_gid)}"
            if changed:
                await ctx.out(f"changed {what} of {quote(path)} to {new_desc}\n")
            else:
                await ctx.out(f"{what} of {quote(path)} retained as {new_desc}\n")
        return 0

    return await _walk_all(ctx, operands, recursive, visit)

