"""File tree operations: cp, mv, rm, mkdir, rmdir, touch, ln, truncate, sync, mkfifo."""
from __future__ import annotations

import errno
import stat as st
import time

from ..vfs import FSError, normpath
from ._lib.dates import DateError, parse_timestamp, parse_touch_stamp
from ._lib.fsutil import join_path, parse_mode, umask_of
from ._lib.quoting import quote, strerror
from ._lib.sizes import parse_size
from .options import UsageError, argmatch, getopt
from .registry import CommandContext, command


def _basename(path: str) -> str:
    stripped = path.rstrip("/")
    return stripped.rsplit("/", 1)[-1] if stripped else "/"


def _lstat(ctx: CommandContext, path: str):
    try:
        return ctx.fs.lstat(path, ctx.cwd)
    except FSError:
        return None


def _stat(ctx: CommandContext, path: str):
    try:
        return ctx.fs.stat(path, ctx.cwd)
    except FSError:
        return None


def _is_dir(s) -> bool:
    return s is not None and st.S_ISDIR(s.st_mode)


def _inside(ctx: CommandContext, child: str, parent: str) -> bool:
    """Whether ``child`` is ``parent`` or below it (after resolving symlinks)."""
    try:
        p = ctx.fs.realpath(parent, ctx.cwd)
        c = ctx.fs.realpath(child, ctx.cwd, strict=False)
    except FSError:
        return False
    return c == p or c.startswith(p.rstrip("/") + "/")


def _split_target(ctx: CommandContext, operands: list[str], target_dir: str | None,
                  no_target_dir: bool, verb: str) -> tuple[list[str], str | None, str | None]:
    """(sources, directory to put them in, or single destination) per GNU's cp/mv/ln rules."""
    if target_dir is not None:
        if not operands:
            raise UsageError("missing file operand", 1)
        s = _stat(ctx, target_dir)
        if s is None:
            raise _Fatal(f"target directory {quote(target_dir)}: No such file or directory")
        if not _is_dir(s):
            if verb == "link":
                raise _Fatal(f"target {quote(target_dir)} is not a directory")
            raise _Fatal(f"target directory {quote(target_dir)}: Not a directory")
        return operands, target_dir, None
    if not operands:
        raise UsageError("missing file operand", 1)
    if len(operands) == 1:
        raise UsageError(f"missing destination file operand after {quote(operands[0])}", 1)
    if no_target_dir:
        if len(operands) > 2:
            raise UsageError(f"extra operand {quote(operands[2])}", 1)
        return operands[:1], None, operands[1]
    dest = operands[-1]
    if _is_dir(_stat(ctx, dest)):
        return operands[:-1], dest, None
    if len(operands) > 2:
        if _lstat(ctx, dest) is None and _stat(ctx, dest) is None:
            raise _Fatal(f"target {quote(dest)}: No such file or directory")
        raise _Fatal(f"target {quote(dest)}: Not a directory")
    return operands[:1], None, dest


class _Fatal(Exception):
    """A message that ends the command with status 1 (no usage hint)."""


async def _run_guarded(ctx: CommandContext, body) -> int:
    try:
        return await body()
    except _Fatal as e:
        await ctx.error(str(e))
        return 1


# ============================================================================ cp
CP_HELP = """\
Usage: cp [OPTION]... [-T] SOURCE DEST
  or:  cp [OPTION]... SOURCE... DIRECTORY
  or:  cp [OPTION]... -t DIRECTORY SOURCE...
Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY.

  -a, --archive                same as -dR --preserve=all
  -d                           same as --no-dereference --preserve=links
  -f, --force                  if an existing destination file cannot be
                                 opened, remove it and try again
  -i, --interactive            accepted; never prompts (no terminal)
  -H                           follow command-line symbolic links in SOURCE
  -l, --link                   hard link files instead of copying
  -L, --dereference            always follow symbolic links in SOURCE
  -n, --no-clobber             do not overwrite an existing file
  -P, --no-dereference         never follow symbolic links in SOURCE
  -p                           same as --preserve=mode,ownership,timestamps
      --preserve[=ATTR_LIST]   preserve the specified attributes
      --parents                use full source file name under DIRECTORY
  -R, -r, --recursive          copy directories recursively
  -s, --symbolic-link          make symbolic links instead of copying
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY
  -T, --no-target-directory    treat DEST as a normal file
  -u, --update                 copy only when the SOURCE file is newer
                                 than the destination file or when the
                                 destination file is missing
  -v, --verbose                explain what is being done
      --help                   display this help and exit"""

CP_LONG = {"archive": "a", "force": "f", "interactive": "i", "link": "l", "dereference": "L",
           "no-clobber": "n", "no-dereference": "P", "preserve==": None, "no-preserve=": None,
           "recursive": "R", "symbolic-link": "s", "target-directory=": "t",
           "no-target-directory": "T", "update==": None, "verbose": "v", "parents": None,
           "remove-destination": None}


class _Copier:
    def __init__(self, ctx: CommandContext) -> None:
        self.ctx = ctx
        self.fs = ctx.fs
        self.recursive = False
        self.deref = "default"   # "always" | "never" | "cmdline" | "default"
        self.preserve_mode = self.preserve_times = False
        self.preserve_links = False
        #: --preserve=links: the copy made of each multiply linked source (by inode), later
        #: names of the same source become hard links to it
        self.copies: dict[int, str] = {}
        self.no_clobber = self.force = self.update = self.verbose = False
        self.hard_link = self.sym_link = False
        self.remove_destination = False
        self.parents = False
        self.status = 0

    async def fail(self, message: str) -> None:
        await self.ctx.error(message)
        self.status = 1

    def follow(self, top: bool) -> bool:
        if self.deref == "always":
            return True
        if self.deref == "never":
            return False
        if self.deref == "cmdline":
            return top
        return not self.recursive

    async def copy(self, src: str, dst: str, top: bool = True) -> None:
        fs, cwd = self.fs, self.ctx.cwd
        try:
            sst = fs.stat(src, cwd) if self.follow(top) else fs.lstat(src, cwd)
        except FSError as e:
            await self.fail(f"cannot stat {quote(src)}: {strerror(e)}")
            return
        dst_l = _lstat(self.ctx, dst)
        dst_s = _stat(self.ctx, dst) if dst_l is not None else None
        if dst_s is not None and dst_s.st_ino == sst.st_ino and not self.sym_link:
            if not (st.S_ISLNK(sst.st_mode) or self.hard_link and not top):
                await self.fail(f"{quote(src)} and {quote(dst)} are the same file")
                return
        if st.S_ISDIR(sst.st_mode):
            if not self.recursive:
                await self.fail(f"-r not specified; omitting directory {quote(src)}")
                return
            await self.copy_dir(src, dst, sst, dst_l, dst_s)
            return
        if dst_l is not None:
            if _is_dir(dst_s if dst_s is not None else dst_l):
                await self.fail(f"cannot overwrite directory {quote(dst)} with non-directory")
                return
            if dst_s is None and not (self.remove_destination or self.sym_link or self.hard_link
                                      or st.S_ISLNK(sst.st_mode)):
                await self.fail(f"not writing through dangling symlink {quote(dst)}")
                return
            if self.no_clobber:
                return
            if self.update and dst_s is not None and dst_s.st_mtime >= sst.st_mtime:
                return
        elif dst.endswith("/"):
            await self.fail(f"cannot create regular file {quote(dst)}: Not a directory")
            return
        if (self.sym_link or self.hard_link) and dst_l is not None and not (self.force or self.remove_destination):
            kind = "symbolic link" if self.sym_link else "hard link"
            await self.fail(f"cannot create {kind} {quote(dst)} to {quote(src)}: File exists")
            return
        earlier = self.copies.get(sst.st_ino) if self.preserve_links and sst.st_nlink > 1 else None
        try:
            if earlier is not None and not (self.sym_link or self.hard_link):
                # GNU: the name first, then what replacing the destination removed
                if self.verbose:
                    await self.ctx.out(f"{quote(src)} -> {quote(dst)}\n")
                if dst_l is not None:
                    fs.unlink(dst, cwd)
                    if self.verbose:
                        await self.ctx.out(f"removed {quote(dst)}\n")
                fs.link(earlier, dst, cwd)
                return
            if self.preserve_links and dst_l is not None and dst_l.st_nlink > 1 \
                    and st.S_ISREG(sst.st_mode) and not (self.sym_link or self.hard_link):
                fs.unlink(dst, cwd)  # not written through: the destination's other names keep their data
                dst_l = None
                if self.verbose:
                    await self.ctx.out(f"removed {quote(dst)}\n")
            if self.sym_link:
                if dst_l is not None:
                    fs.unlink(dst, cwd)
                fs.symlink(src, dst, cwd)
            elif self.hard_link:
                if dst_l is not None:
                    fs.unlink(dst, cwd)
                fs.link(src, dst, cwd, follow=self.follow(top))
            elif st.S_ISLNK(sst.st_mode):
                target = fs.readlink(src, cwd)
                if dst_l is not None:
                    fs.unlink(dst, cwd)
                    if self.verbose:
                        await self.ctx.out(f"removed {quote(dst)}\n")
                fs.symlink(target, dst, cwd)
            elif st.S_ISFIFO(sst.st_mode) and self.recursive:
                # -R makes special files anew, as GNU cp does (without --copy-contents)
                if dst_l is not None:
                    fs.unlink(dst, cwd)
                perm = sst.st_mode & 0o7777
                fs.mkfifo(dst, cwd, perm, umask=0 if self.preserve_mode else umask_of(self.ctx))
                self.copy_times(dst, sst)
            else:
                await self.copy_file(src, dst, sst, dst_l)
        except FSError as e:
            kind = "symbolic link" if self.sym_link or st.S_ISLNK(sst.st_mode) else (
                "hard link" if self.hard_link else "regular file")
            if e.errno == errno.ENOSPC:
                await self.fail(f"error writing {quote(dst)}: {strerror(e)}")
            else:
                await self.fail(f"cannot create {kind} {quote(dst)}: {strerror(e)}")
            return
        if self.preserve_links and sst.st_nlink > 1 and earlier is None:
            self.copies[sst.st_ino] = self.ctx.resolve(dst)
        if self.verbose:
            await self.ctx.out(f"{quote(src)} -> {quote(dst)}\n")

    async def copy_file(self, src: str, dst: str, sst, dst_l) -> None:
        fs, cwd = self.fs, self.ctx.cwd
        if st.S_ISFIFO(sst.st_mode):
            data = await self.ctx.open_input(src).read()  # what its writers write, until they close
        else:
            data = fs.read_bytes(src, cwd)
        if dst_l is not None and self.remove_destination:
            fs.unlink(dst, cwd)
            dst_l = None
        perm = sst.st_mode & 0o777
        try:
            fs.write_bytes(dst, data, cwd, perm=perm)
        except FSError as e:
            if e.errno != errno.EACCES or not self.force or dst_l is None:
                raise
            fs.unlink(dst, cwd)
            dst_l = None
            fs.write_bytes(dst, data, cwd, perm=perm)
        if dst_l is None and not self.preserve_mode:
            fs.chmod(dst, perm & ~umask_of(self.ctx), cwd)
        self.apply_attrs(dst, sst)
        await self.ctx.checkpoint()

    def apply_attrs(self, dst: str, sst) -> None:
        fs, cwd = self.fs, self.ctx.cwd
        if self.preserve_mode:
            try:
                fs.chmod(dst, sst.st_mode & 0o7777, cwd)
            except FSError:
                pass
        self.copy_times(dst, sst)

    async def make_parents(self, src: str, into: str) -> str | None:
        """--parents: SRC's whole name under INTO, its missing directories made with their
        source's mode (less the umask, unless preserved); the name to copy to, or None."""
        fs, cwd = self.fs, self.ctx.cwd
        rel = src.lstrip("/")
        lead = src[:len(src) - len(rel)]
        # each directory as written (foo//bar/./baz: foo, foo//bar, foo//bar/., ...)
        ends = [i for i in range(1, len(rel)) if rel[i] == "/" and rel[i - 1] != "/"]
        for end in ends:
            built = rel[:end]
            src_dir, dst_dir = lead + built, join_path(into, built)
            existing = _stat(self.ctx, dst_dir)
            if existing is not None:
                if not _is_dir(existing):
                    await self.fail(f"{quote(dst_dir)} exists but is not a directory")
                    return None
                continue
            try:
                sst = fs.stat(src_dir, cwd)
                fs.mkdir(dst_dir, cwd, mode=0o700)
                mode = sst.st_mode & 0o7777
                fs.chmod(dst_dir, mode if self.preserve_mode else mode & ~umask_of(self.ctx), cwd)
            except FSError as e:
                await self.fail(f"cannot make directory {quote(dst_dir)}: {strerror(e)}")
                return None
            self.copy_times(dst_dir, sst)
            if self.verbose:
                await self.ctx.out(f"{src_dir} -> {dst_dir}\n")
        return join_path(into, rel)

    def copy_times(self, dst: str, sst) -> None:
        if self.preserve_times:
            try:
                self.fs.utime(dst, sst.st_mtime, sst.st_atime, self.ctx.cwd)
            except FSError:
                pass

    async def copy_dir(self, src: str, dst: str, sst, dst_l, dst_s) -> None:
        fs, cwd = self.fs, self.ctx.cwd
        if _inside(self.ctx, dst, src):
            await self.fail(f"cannot copy a directory, {quote(src)}, into itself, {quote(dst)}")
            return
        created = False
        if dst_l is None:
            try:
                fs.mkdir(dst, cwd, mode=(sst.st_mode & 0o777) | 0o700)
                created = True
            except FSError as e:
                await self.fail(f"cannot create directory {quote(dst)}: {strerror(e)}")
                return
            if self.verbose:
                await self.ctx.out(f"{quote(src)} -> {quote(dst)}\n")
        elif not _is_dir(dst_s):
            await self.fail(f"cannot overwrite non-directory {quote(dst)} with directory {quote(src)}")
            return
        try:
            names = fs.listdir(src, cwd)
        except FSError as e:
            await self.fail(f"cannot access {quote(src)}: {strerror(e)}")
            return
        for name in names:
            await self.copy(join_path(src, name), join_path(dst, name), top=False)
        if created:
            try:
                mode = sst.st_mode & 0o7777
                fs.chmod(dst, mode if self.preserve_mode else mode & ~umask_of(self.ctx), cwd)
            except FSError:
                pass
        self.copy_times(dst, sst)


def _preserve_list(copier: _Copier, value: str | None, on: bool) -> None:
    items = (value or "mode,ownership,timestamps").split(",")
    for item in items:
        item = argmatch(item, ["mode", "timestamps", "ownership", "links", "context", "xattr", "all"],
                        "--preserve")
        if item in ("mode", "all"):
            copier.preserve_mode = on
        if item in ("timestamps", "all"):
            copier.preserve_times = on
        if item in ("links", "all"):
            copier.preserve_links = on

# which symbolic links in SOURCE cp follows, by option
_CP_DEREF = {"d": "never", "P": "never", "L": "always", "H": "cmdline"}


@command("cp", help=CP_HELP)
async def cp(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "adfiHlLnPprRsSt:Tuv", CP_LONG, status=1)
    c = _Copier(ctx)
    target_dir = None
    no_target = False
    for key, val in opts:
        if key == "a":
            c.recursive = True
            c.deref = "never"
            c.preserve_mode = c.preserve_times = c.preserve_links = True
        elif key in _CP_DEREF:
            c.deref = _CP_DEREF[key]
            if key == "d":
                c.preserve_links = True
        elif key in "rR":
            c.recursive = True
        elif key == "p":
            c.preserve_mode = c.preserve_times = True
        elif key == "preserve":
            _preserve_list(c, val, True)
        elif key == "no-preserve":
            _preserve_list(c, val, False)
        elif key == "f":
            c.force = True
            c.no_clobber = False
        elif key == "n":
            c.no_clobber = True
        elif key == "u" or key == "update":
            c.update = val != "all"
        elif key == "v":
            c.verbose = True
        elif key == "l":
            c.hard_link = True
        elif key == "s":
            c.sym_link = True
        elif key == "t":
            target_dir = val
        elif key == "T":
            no_target = True
        elif key == "remove-destination":
            c.remove_destination = True
        elif key == "parents":
            c.parents = True

    async def body() -> int:
        try:
            sources, into, dest = _split_target(ctx, operands, target_dir, no_target, "copy")
        except FSError as e:
            raise _Fatal(f"{e.filename}: {strerror(e)}")
        if c.parents and into is None:
            raise UsageError("with --parents, the destination must be a directory", 1)
        for src in sources:
            if c.parents:
                target = await c.make_parents(src, into)
                if target is not None:
                    await c.copy(src, target)
            elif into is not None:
                await c.copy(src, join_path(into, _basename(src)))
            else:
                await c.copy(src, dest)
        return c.status

    return await _run_guarded(ctx, body)


# ============================================================================ mv
MV_HELP = """\
Usage: mv [OPTION]... [-T] SOURCE DEST
  or:  mv [OPTION]... SOURCE... DIRECTORY
  or:  mv [OPTION]... -t DIRECTORY SOURCE...
Rename SOURCE to DEST, or move SOURCE(s) to DIRECTORY.

  -f, --force                  do not prompt before overwriting
  -i, --interactive            accepted; never prompts (no terminal)
  -n, --no-clobber             do not overwrite an existing file
  -t, --target-directory=DIRECTORY  move all SOURCE arguments into DIRECTORY
  -T, --no-target-directory    treat DEST as a normal file
  -u, --update                 move only when the SOURCE file is newer
                                 than the destination file or when the
                                 destination file is missing
  -v, --verbose                explain what is being done
      --help                   display this help and exit"""


@command("mv", help=MV_HELP)
async def mv(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "bfint:TuvZ", {
        "force": "f", "interactive": "i", "no-clobber": "n", "target-directory=": "t",
        "no-target-directory": "T", "update": "u", "verbose": "v"}, status=1)
    flags = {k for k, _ in opts}
    target_dir = next((v for k, v in opts if k == "t"), None)
    no_clobber = "n" in flags and not [k for k, _ in opts if k == "f"][-1:] == ["f"]
    fs, cwd = ctx.fs, ctx.cwd

    async def body() -> int:
        try:
            sources, into, dest = _split_target(ctx, operands, target_dir, "T" in flags, "move")
        except FSError as e:
            raise _Fatal(f"{e.filename}: {strerror(e)}")
        status = 0
        for src in sources:
            dst = join_path(into, _basename(src)) if into is not None else dest
            sst = _lstat(ctx, src)
            if sst is None:
                try:
                    fs.lstat(src, cwd)
                except FSError as e:
                    await ctx.error(f"cannot stat {quote(src)}: {strerror(e)}")
                status = 1
                continue
            dst_l = _lstat(ctx, dst)
            if dst_l is not None:
                if dst_l.st_ino == sst.st_ino:
                    await ctx.error(f"{quote(src)} and {quote(dst)} are the same file")
                    status = 1
                    continue
                if no_clobber:
                    continue
                if "u" in flags and dst_l.st_mtime >= sst.st_mtime:
                    continue
            if st.S_ISDIR(sst.st_mode) and _inside(ctx, dst, src):
                await ctx.error(f"cannot move {quote(src)} to a subdirectory of itself, {quote(dst)}")
                status = 1
                continue
            try:
                fs.rename(src, dst, cwd)
            except FSError as e:
                if e.errno == errno.EISDIR or (dst_l is not None and _is_dir(dst_l) and not st.S_ISDIR(sst.st_mode)):
                    await ctx.error(f"cannot overwrite directory {quote(dst)} with non-directory")
                elif e.errno == errno.ENOTDIR and dst_l is not None and st.S_ISDIR(sst.st_mode):
                    await ctx.error(f"cannot overwrite non-directory {quote(dst)} with directory {quote(src)}")
                elif e.errno == errno.EINVAL:
                    await ctx.error(f"cannot move {quote(src)} to a subdirectory of itself, {quote(dst)}")
                else:
                    await ctx.error(f"cannot move {quote(src)} to {quote(dst)}: {strerror(e)}")
                status = 1
                continue
            if "v" in flags:
                await ctx.out(f"renamed {quote(src)} -> {quote(dst)}\n")
        return status

    return await _run_guarded(ctx, body)


# ============================================================================ rm
RM_HELP = """\
Usage: rm [OPTION]... [FILE]...
Remove (unlink) the FILE(s).

  -f, --force           ignore nonexistent files and arguments, never prompt
  -i                    accepted; never prompts (no terminal)
  -I                    accepted; never prompts (no terminal)
  -r, -R, --recursive   remove directories and their contents recursively
  -d, --dir             remove empty directories
  -v, --verbose         explain what is being done
      --no-preserve-root  do not treat '/' specially
      --preserve-root   do not remove '/' (default)
      --help            display this help and exit"""


@command("rm", help=RM_HELP)
async def rm(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "dfiIrRv", {
        "force": "f", "interactive==": None, "recursive": "r", "dir": "d", "verbose": "v",
        "no-preserve-root": None, "preserve-root==": None, "one-file-system": None}, status=1)
    force = recursive = empty_dirs = verbose = False
    preserve_root = True
    for key, _ in opts:
        if key == "f":
            force = True
        elif key in "rR":
            recursive = True
        elif key == "d":
            empty_dirs = True
        elif key == "v":
            verbose = True
        elif key == "no-preserve-root":
            preserve_root = False
        elif key == "preserve-root":
            preserve_root = True
    if not operands:
        if force:
            return 0
        raise UsageError("missing operand", 1)
    fs, cwd = ctx.fs, ctx.cwd
    status = 0

    async def remove(path: str) -> bool:
        try:
            lst = fs.lstat(path, cwd)
        except FSError as e:
            if force and e.errno == errno.ENOENT:
                return True
            await ctx.error(f"cannot remove {quote(path)}: {strerror(e)}")
            return False
        if st.S_ISDIR(lst.st_mode):
            if not recursive:
                if empty_dirs:
                    return await remove_empty_dir(path)
                await ctx.error(f"cannot remove {quote(path)}: Is a directory")
                return False
            if not verbose and not path.endswith("/"):  # 'link/' removes the contents, not the link
                try:  # on the nodes: no recursion, no paths longer than PATH_MAX
                    fs.remove_tree(path, cwd)
                    return True
                except FSError:
                    pass  # what is left is walked entry by entry, each failure reported
            return await remove_tree_by_paths(path)
        try:
            fs.unlink(path, cwd)
        except FSError as e:
            await ctx.error(f"cannot remove {quote(path)}: {strerror(e)}")
            return False
        if verbose:
            await ctx.out(f"removed {quote(path)}\n")
        return True

    async def listing(path: str) -> list[str] | None:
        try:
            return fs.listdir(path, cwd)
        except FSError as e:
            await ctx.error(f"cannot remove {quote(path)}: {strerror(e)}")
            return None

    async def remove_tree_by_paths(top: str) -> bool:
        """Depth first with a stack of (directory, names left, all removed so far)."""
        names = await listing(top)
        if names is None:
            return False
        stack = [(top, iter(names), [True])]
        while stack:
            path, left, ok = stack[-1]
            name = next(left, None)
            if name is None:
                stack.pop()
                done = ok[0] and await remove_empty_dir(path)
                if not stack:
                    return done
                stack[-1][2][0] &= done
                continue
            await ctx.checkpoint()
            child = join_path(path, name)
            try:
                is_dir = st.S_ISDIR(fs.lstat(child, cwd).st_mode)
            except FSError:
                is_dir = False  # remove() reports it
            if not is_dir:
                ok[0] &= await remove(child)
                continue
            names = await listing(child)
            if names is None:
                ok[0] = False
            else:
                stack.append((child, iter(names), [True]))
        return True

    async def remove_empty_dir(path: str) -> bool:
        try:
            fs.rmdir(path, cwd)
        except FSError as e:
            await ctx.error(f"cannot remove {quote(path)}: {strerror(e)}")
            return False
        if verbose:
            await ctx.out(f"removed directory {quote(path)}\n")
        return True

    for path in operands:
        base = path.rstrip("/").rsplit("/", 1)[-1] if path.rstrip("/") else "/"
        if base in (".", "..") and (recursive or empty_dirs):
            await ctx.error(f"refusing to remove '.' or '..' directory: skipping {quote(path)}")
            status = 1
            continue
        if recursive and preserve_root and path.startswith("/") and normpath(path) == "/" and _is_root(ctx, path):
            await ctx.error("it is dangerous to operate recursively on '/'")
            await ctx.error("use --no-preserve-root to override this failsafe")
            status = 1
            continue
        if not await remove(path):
            status = 1
    return status


def _is_root(ctx: CommandContext, path: str) -> bool:
    try:
        return ctx.fs.realpath(path, ctx.cwd) == "/"
    except FSError:
        return False


# ============================================================================ mkdir / rmdir
MKDIR_HELP = """\
Usage: mkdir [OPTION]... DIRECTORY...
Create the DIRECTORY(ies), if they do not already exist.

  -m, --mode=MODE   set file mode (as in chmod), not a=rwx - umask
  -p, --parents     no error if existing, make parent directories as needed,
                    with their file modes unaffected by any -m option.
  -v, --verbose     print a message for each created directory
      --help        display this help and exit"""


@command("mkdir", help=MKDIR_HELP)
async def mkdir(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "m:pvZ", {"mode=": "m", "parents": "p", "verbose": "v"}, status=1)
    parents = verbose = False
    mode_text = None
    for key, val in opts:
        if key == "p":
            parents = True
        elif key == "v":
            verbose = True
        elif key == "m":
            mode_text = val
    if not operands:
        raise UsageError("missing operand", 1)
    fs, cwd = ctx.fs, ctx.cwd
    mode = None
    umask = umask_of(ctx)
    if mode_text is not None:
        mode = parse_mode(mode_text, 0o777, is_dir=True, umask=umask)
        if mode is None:
            await ctx.error(f"invalid mode {quote(mode_text, 'locale')}")
            return 1
    status = 0
    for path in operands:
        to_create = [path]
        if parents:
            to_create = []
            parts = path.split("/")
            prefix = ""
            for i, part in enumerate(parts):
                prefix = part if i == 0 else prefix + "/" + part
                if part in ("", ".", ".."):
                    continue
                to_create.append(prefix)
        ok = True
        for i, sub in enumerate(to_create):
            last = i == len(to_create) - 1
            existing = _stat(ctx, sub)
            if parents and existing is not None:
                if not _is_dir(existing):
                    await ctx.error(f"cannot create directory {quote(path if last else sub, 'locale')}: "
                                    f"{'File exists' if last else 'Not a directory'}")
                    ok = False
                    break
                continue
            try:
                fs.mkdir(sub, cwd, mode=0o777)
                if last:
                    fs.chmod(sub, mode if mode is not None else 0o777 & ~umask, cwd)
                else:
                    fs.chmod(sub, (0o777 & ~umask) | 0o300, cwd)
            except FSError as e:
                await ctx.error(f"cannot create directory {quote(sub if parents else path, 'locale')}: {strerror(e)}")
                ok = False
                break
            if verbose:
                await ctx.out(f"mkdir: created directory {quote(sub)}\n")
        if not ok:
            status = 1
    return status


RMDIR_HELP = """\
Usage: rmdir [OPTION]... DIRECTORY...
Remove the DIRECTORY(ies), if they are empty.

      --ignore-fail-on-non-empty
                    ignore each failure that is solely because a directory
                    is non-empty
  -p, --parents     remove DIRECTORY and its ancestors; e.g., 'rmdir -p a/b/c' is
                    similar to 'rmdir a/b/c a/b a'
  -v, --verbose     output a diagnostic for every directory processed
      --help        display this help and exit"""


@command("rmdir", help=RMDIR_HELP)
async def rmdir(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "pv", {"parents": "p", "verbose": "v",
                                             "ignore-fail-on-non-empty": None}, status=1)
    keys = {k for k, _ in opts}
    if not operands:
        raise UsageError("missing operand", 1)
    status = 0
    for path in operands:
        chain = [path]
        if "p" in keys:
            stripped = path.rstrip("/")
            while "/" in stripped.strip("/"):
                stripped = stripped.rsplit("/", 1)[0].rstrip("/")
                if stripped and stripped not in (".", ".."):
                    chain.append(stripped)
        for index, sub in enumerate(chain):
            if "v" in keys:
                await ctx.out(f"rmdir: removing directory, {quote(sub)}\n")
            try:
                ctx.fs.rmdir(sub, ctx.cwd)
            except FSError as e:
                if e.errno == errno.ENOTEMPTY and "ignore-fail-on-non-empty" in keys:
                    break
                what = "directory " if index else ""
                await ctx.error(f"failed to remove {what}{quote(sub)}: {strerror(e)}")
                status = 1
                break
    return status


# ============================================================================ touch
TOUCH_HELP = """\
Usage: touch [OPTION]... FILE...
Update the access and modification times of each FILE to the current time.

A FILE argument that does not exist is created empty, unless -c or -h
is supplied.

  -a                     change only the access time
  -c, --no-create        do not create any files
  -d, --date=STRING      parse STRING and use it instead of current time
  -h, --no-dereference   affect each symbolic link instead of any referenced
                         file
  -m                     change only the modification time
  -r, --reference=FILE   use this file's times instead of current time
  -t STAMP               use [[CC]YY]MMDDhhmm[.ss] instead of current time
      --time=WORD        change the specified time:
                           WORD is access, atime, or use: equivalent to -a
                           WORD is modify or mtime: equivalent to -m
      --help             display this help and exit"""


@command("touch", help=TOUCH_HELP)
async def touch(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "acd:fhmr:t:", {
        "no-create": "c", "date=": "d", "no-dereference": "h", "reference=": "r", "time=": None}, status=1)
    only_a = only_m = no_create = no_deref = False
    stamp: float | None = None
    ref_times: tuple[float, float] | None = None
    fs, cwd = ctx.fs, ctx.cwd
    for key, val in opts:
        if key == "a":
            only_a = True
        elif key == "m":
            only_m = True
        elif key == "c":
            no_create = True
        elif key == "h":
            no_deref = True
        elif key == "d":
            try:
                stamp = parse_timestamp(val or "", ctx.env)
            except DateError:
                await ctx.error(f"invalid date format {quote(val or '', 'locale')}")
                return 1
        elif key == "t":
            stamp = parse_touch_stamp(val or "", ctx.env)
            if stamp is None:
                await ctx.error(f"invalid date format {quote(val or '', 'locale')}")
                return 1
        elif key == "r":
            try:
                rs = fs.stat(val or "", cwd)
            except FSError as e:
                await ctx.error(f"failed to get attributes of {quote(val or '')}: {strerror(e)}")
                return 1
            ref_times = (rs.st_atime, rs.st_mtime)
        elif key == "time":
            if argmatch(val, {"atime": "a", "access": "a", "use": "a", "mtime": "m", "modify": "m"},
                        "--time") == "a":
                only_a = True
            else:
                only_m = True
    if not operands:
        raise UsageError("missing file operand", 1)
    if only_a and only_m:
        only_a = only_m = False
    status = 0
    for path in operands:
        if path == "-":
            continue
        follow = not no_deref
        try:
            exists = fs.exists(path, cwd, follow=follow)
            if not exists:
                if no_create or no_deref:
                    continue
                fs.open(path, "ab", cwd=cwd).close()
                fs.chmod(path, 0o666 & ~umask_of(ctx), cwd)
            if ref_times is None and stamp is None and not (only_a or only_m):
                fs.utime(path, None, None, cwd, follow=follow)
                continue
            cur = fs.stat(path, cwd, follow=follow)
            new_atime = new_mtime = stamp if stamp is not None else time.time()
            if ref_times is not None:
                new_atime, new_mtime = ref_times
                if stamp is not None:
                    new_atime = new_mtime = stamp
            atime = cur.st_atime if only_m else new_atime
            mtime = cur.st_mtime if only_a else new_mtime
            fs.utime(path, mtime, atime, cwd, follow=follow)
        except FSError as e:
            if e.errno in (errno.EPERM,) and fs.exists(path, cwd):
                await ctx.error(f"setting times of {quote(path)}: {strerror(e)}")
            else:
                await ctx.error(f"cannot touch {quote(path)}: {strerror(e)}")
            status = 1
    return status


# ============================================================================ ln
LN_HELP = """\
Usage: ln [OPTION]... [-T] TARGET LINK_NAME
  or:  ln [OPTION]... TARGET
  or:  ln [OPTION]... TARGET... DIRECTORY
  or:  ln [OPTION]... -t DIRECTORY TARGET...
Create a link to TARGET with the name LINK_NAME, or links in DIRECTORY.
Create hard links by default, symbolic links with --symbolic.

  -f, --force                 remove existing destination files
  -i, --interactive           accepted; never prompts (no terminal)
  -L, --logical               dereference TARGETs that are symbolic links
  -n, --no-dereference        treat LINK_NAME as a normal file if
                                it is a symbolic link to a directory
  -P, --physical              make hard links directly to symbolic links
  -r, --relative              with -s, create links relative to link location
  -s, --symbolic              make symbolic links instead of hard links
  -t, --target-directory=DIRECTORY  specify the DIRECTORY in which to create
                                the links
  -T, --no-target-directory   treat LINK_NAME as a normal file always
  -v, --verbose               print name of each linked file
      --help                  display this help and exit"""


def _relative_to(target_abs: str, start_dir: str) -> str:
    t = [p for p in target_abs.split("/") if p]
    s = [p for p in start_dir.split("/") if p]
    i = 0
    while i < len(t) and i < len(s) and t[i] == s[i]:
        i += 1
    parts = [".."] * (len(s) - i) + t[i:]
    return "/".join(parts) or "."


@command("ln", help=LN_HELP)
async def ln(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "bfiLnPrst:Tv", {
        "force": "f", "interactive": "i", "logical": "L", "no-dereference": "n",
        "physical": "P", "relative": "r", "symbolic": "s", "target-directory=": "t",
        "no-target-directory": "T", "verbose": "v", "no-target": "T"}, status=1)
    keys = [k for k, _ in opts]
    symbolic, force, verbose = "s" in keys, "f" in keys, "v" in keys
    no_deref, relative, logical = "n" in keys, "r" in keys, "L" in keys
    target_dir = next((v for k, v in opts if k == "t"), None)
    no_target = "T" in keys
    fs, cwd = ctx.fs, ctx.cwd
    if relative and not symbolic:
        await ctx.error("cannot do --relative without --symbolic")
        return 1

    async def body() -> int:
        if not operands:
            raise UsageError("missing file operand", 1)
        if len(operands) == 1 and target_dir is None:
            if no_target:
                raise UsageError(f"missing destination file operand after {quote(operands[0])}", 1)
            pairs = [(operands[0], _basename(operands[0]))]
        else:
            if target_dir is None and not no_target and len(operands) == 2 and no_deref:
                dst_l = _lstat(ctx, operands[1])
                if dst_l is not None and st.S_ISLNK(dst_l.st_mode):
                    sources, into, dest = operands[:1], None, operands[1]
                else:
                    sources, into, dest = _split_target(ctx, operands, None, False, "link")
            else:
                try:
                    sources, into, dest = _split_target(ctx, operands, target_dir, no_target, "link")
                except FSError as e:
                    raise _Fatal(f"{e.filename}: {strerror(e)}")
            pairs = [(s, join_path(into, _basename(s)) if into is not None else dest) for s in sources]
        status = 0
        for target, name in pairs:
            if not symbolic:
                try:
                    tst = fs.stat(target, cwd) if logical else fs.lstat(target, cwd)
                except FSError as e:
                    await ctx.error(f"failed to access {quote(target)}: {strerror(e)}")
                    status = 1
                    continue
                if st.S_ISDIR(tst.st_mode):
                    await ctx.error(f"{target}: hard link not allowed for directory")
                    status = 1
                    continue
            existing = _lstat(ctx, name)
            if existing is not None:
                if not force:
                    kind = "symbolic link" if symbolic else "hard link"
                    await ctx.error(f"failed to create {kind} {quote(name)}: File exists")
                    status = 1
                    continue
                if st.S_ISDIR(existing.st_mode):
                    await ctx.error(f"{quote(name)}: cannot overwrite directory")
                    status = 1
                    continue
                if not symbolic and existing.st_ino == _lstat(ctx, target).st_ino:
                    await ctx.error(f"{quote(target)} and {quote(name)} are the same file")
                    status = 1
                    continue
            link_text = target
            if symbolic and relative:
                link_dir = normpath(name, cwd).rsplit("/", 1)[0] or "/"
                try:
                    link_dir = fs.realpath(link_dir)
                except FSError:
                    pass
                link_text = _relative_to(fs.realpath(target, cwd, strict=False), link_dir)
            try:
                if existing is not None:
                    fs.unlink(name, cwd)
                if symbolic:
                    fs.symlink(link_text, name, cwd)
                else:
                    fs.link(target, name, cwd, follow=logical)
            except FSError as e:
                kind = "symbolic link" if symbolic else "hard link"
                if symbolic:
                    await ctx.error(f"failed to create {kind} {quote(name)}: {strerror(e)}")
                else:
                    await ctx.error(f"failed to create {kind} {quote(name)} => {quote(target)}: {strerror(e)}")
                status = 1
                continue
            if verbose:
                arrow = "->" if symbolic else "=>"
                await ctx.out(f"{quote(name)} {arrow} {quote(link_text)}\n")
        return status

    return await _run_guarded(ctx, body)


# ============================================================================ truncate
TRUNCATE_HELP = """\
Usage: truncate OPTION... FILE...
Shrink or extend the size of each FILE to the specified size

A FILE argument that does not exist is created.

  -c, --no-create        do not create any files
  -r, --reference=RFILE  base size on RFILE
  -s, --size=SIZE        set or adjust the file size by SIZE bytes
      --help             display this help and exit

SIZE may be (or may be an integer optionally followed by) one of following:
KB 1000, K 1024, MB 1000*1000, M 1024*1024, and so on for G, T, P, E, Z, Y.
SIZE may also be prefixed by one of the following modifying characters:
'+' extend by, '-' reduce by, '<' at most, '>' at least,
'/' round down to multiple of, '%' round up to multiple of."""


@command("truncate", help=TRUNCATE_HELP)
async def truncate(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "cor:s:", {"no-create": "c", "io-blocks": "o",
                                                 "reference=": "r", "size=": "s"}, status=1)
    no_create = any(k == "c" for k, _ in opts)
    size_text = next((v for k, v in reversed(opts) if k == "s"), None)
    ref = next((v for k, v in reversed(opts) if k == "r"), None)
    fs, cwd = ctx.fs, ctx.cwd
    if size_text is None and ref is None:
        raise UsageError("you must specify either '--size' or '--reference'", 1)
    if not operands:
        raise UsageError("missing file operand", 1)
    op, amount = "", 0
    if size_text is not None:
        text = size_text
        if text and text[0] in "+-<>/%":
            op, text = text[0], text[1:]
        parsed = parse_size(text, "EgGkKmMPQRtTYZ0")
        if parsed is None:
            await ctx.error(f"Invalid number: {quote(size_text, 'locale')}")
            return 1
        amount = parsed
        if op in "/%" and op and amount == 0:
            await ctx.error("division by zero")
            return 1
    ref_size = None
    if ref is not None:
        try:
            ref_size = fs.stat(ref, cwd).st_size
        except FSError as e:
            await ctx.error(f"cannot stat {quote(ref)}: {strerror(e)}")
            return 1
    status = 0
    for path in operands:
        try:
            if not fs.exists(path, cwd):
                if no_create:
                    continue
                fs.open(path, "ab", cwd=cwd).close()
                fs.chmod(path, 0o666 & ~umask_of(ctx), cwd)
            cur = fs.stat(path, cwd).st_size
            base = ref_size if ref_size is not None else cur
            if size_text is None:
                new = base
            elif op == "":
                new = amount
            elif op == "+":
                new = base + amount
            elif op == "-":
                new = max(0, base - amount)
            elif op == "<":
                new = min(base, amount)
            elif op == ">":
                new = max(base, amount)
            elif op == "/":
                new = base // amount * amount
            else:
                new = -(-base // amount) * amount
            fs.truncate(path, new, cwd)
        except FSError as e:
            await ctx.error(f"cannot open {quote(path)} for writing: {strerror(e)}")
            status = 1
    return status


# ============================================================================ sync, mkfifo
@command("sync", help="Usage: sync [OPTION] [FILE]...\nSynchronize cached writes to persistent storage.\n"
                      "(The in-memory filesystem has nothing to flush: this does nothing.)")
async def sync(ctx: CommandContext) -> int:
    getopt(ctx.args, "df", {"data": "d", "file-system": "f"}, status=1)
    return 0


MKFIFO_HELP = """Usage: mkfifo [OPTION]... NAME...
Create named pipes (FIFOs) with the given NAMEs.

Mandatory arguments to long options are mandatory for short options too.
  -m, --mode=MODE    set file permission bits to MODE, not a=rw - umask
  -Z                   set the SELinux security context to default type (ignored)
      --help        display this help and exit
"""


@command("mkfifo", help=MKFIFO_HELP)
async def mkfifo(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "m:Z", {"mode=": "m", "context==": "Z"}, status=1)
    if not operands:
        raise UsageError("missing operand", 1)
    umask = umask_of(ctx)
    mode = None
    for key, val in opts:
        if key == "m":
            mode = parse_mode(val, 0o666, umask=umask)
            if mode is None:
                await ctx.error("invalid mode")
                return 1
    status = 0
    for name in operands:
        try:
            ctx.fs.mkfifo(name, ctx.cwd, 0o666, umask=umask)
            if mode is not None:
                ctx.fs.chmod(name, mode, ctx.cwd)  # -m: exactly MODE, the umask aside
        except FSError as e:
            await ctx.error(f"cannot create fifo {quote(name)}: {strerror(e)}")
            status = 1
    return status
