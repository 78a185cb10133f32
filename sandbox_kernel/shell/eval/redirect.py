"""Redirections: opening files and wiring file descriptors for a command.

Functions over the shell (no state of their own besides two of the shell's fields:
``redir_fds``, the fd table being redirected, and ``current_fds``, the one of the command
running). They use of the shell: ``fs``, ``cwd``, ``umask``, ``resource_limits``, ``options``,
``shopts``, ``fds``, its expansion (``expand_word``, ``expand_redirect_target``,
``expand_heredoc``), its variables (``set_var``, ``get_scalar``, ``hold_memory``),
``handle_error``, and ``procsub_files``/``finish_procsubs`` (process substitutions end with the
command they belong to).
"""
from __future__ import annotations


from ...lazy import TYPE_CHECKING
from ...chars import isdigits
from ...streams import (BytesInput, ClosedInput, ClosedOutput, EmptyInput, FileInput, FileOutput, InputStream,
    NullOutput, OutputStream, DirectoryInput, fifo_change, fifo_write)
from ...vfs import FSError
from ...vfs.errors import EISDIR
from ..state import VALUE_OVERHEAD, ShellError
from ..syntax.ast import HereDoc

if TYPE_CHECKING:
    from .interp import Shell


def redirect_now(r) -> bool:
    """Whether ``apply_redirs_now`` can apply ``r``: to or from a file or fd (its target
    expanded by the caller), or a quoted here-document (nothing to wait for)."""
    if r.fd_var is not None:
        return False
    if r.op in ("<<", "<<-"):
        doc = r.target
        return doc.quoted and len(doc.body.parts) <= 1
    return r.op != "<<<"


async def with_redirs(sh: Shell, node, fds: dict, runner) -> int:
    if not node.redirs:
        return await runner(fds)
    procsub_mark = len(sh.procsub_files)
    try:
        fds, opened = await apply_redirs(sh, node.redirs, fds)
    except ShellError as e:
        return await sh.handle_error(e, fds)
    # command substitutions in the command's own words see its redirections
    saved_current, sh.current_fds = sh.current_fds, fds
    try:
        return await runner(fds)
    finally:
        sh.current_fds = saved_current
        await close_opened(opened)
        if len(sh.procsub_files) > procsub_mark:
            await sh.finish_procsubs(procsub_mark)


async def apply_redirs(sh: Shell, redirs: list, fds: dict, permanent: bool = False) -> tuple[dict, list]:
    """A new fd table with ``redirs`` applied (or ``fds`` changed in place when
    ``permanent``), and the streams opened here (to close afterwards)."""
    new = fds if permanent else dict(fds)
    opened: list = []
    saved = sh.redir_fds
    try:
        for r in redirs:
            await _apply_one(sh, r, new, opened)
    except BaseException:
        await close_opened(opened)
        raise
    finally:
        # not kept past the command: its streams (a here-document's text) go with it
        sh.redir_fds = saved
    return new, opened


def apply_redirs_now(sh: Shell, redirs: list, targets: list, fds: dict) -> tuple[dict, list]:
    """``apply_redirs`` of redirections ``redirect_now`` allows, ``targets`` their
    expanded targets (None for a here-document)."""
    new = dict(fds)
    opened: list = []
    saved = sh.redir_fds
    try:
        for r, target in zip(redirs, targets):
            sh.redir_fds = new
            if target is None:
                _set_heredoc(sh, r, new, opened, r.target.body.parts[0].text if r.target.body.parts else "")
            else:
                _apply_target(sh, r, new, opened, target)
    except BaseException:
        close_now(opened)
        raise
    finally:
        sh.redir_fds = saved
    return new, opened


async def _apply_one(sh: Shell, r, fds: dict, opened: list) -> None:
    op = r.op
    sh.redir_fds = fds
    if op in ("<<", "<<-"):
        doc: HereDoc = r.target
        text = doc.body.parts[0].text if doc.quoted and doc.body.parts else (  # type: ignore[union-attr]  # (Lit)
            await sh.expand_heredoc(doc.body) if not doc.quoted else "")
        _set_heredoc(sh, r, fds, opened, text)
        return
    if op == "<<<":
        text = await sh.expand_word(r.target)
        data = (text + "\n").encode("utf-8", "surrogateescape")
        _set_fd(sh, r, fds, opened, 0, _held_input(sh, data, "here-string"))
        return
    _apply_target(sh, r, fds, opened, await sh.expand_redirect_target(r.target))


def _set_heredoc(sh: Shell, r, fds: dict, opened: list, text: str) -> None:
    _set_fd(sh, r, fds, opened, 0, _held_input(sh, text.encode("utf-8", "surrogateescape"), "here-document"))


def _apply_target(sh: Shell, r, fds: dict, opened: list, target: str) -> None:
    """A redirection to or from a file or fd, ``target`` expanded."""
    op = r.op
    if op in ("<&", ">&"):
        default = 0 if op == "<&" else 1
        fd = r.fd if r.fd is not None else default
        if target == "-":
            if r.fd_var:
                fd = _fd_from_var(sh, r.fd_var)
            fds[fd] = ClosedOutput() if op == ">&" else ClosedInput()
            return
        move = target.endswith("-") and isdigits(target[:-1])
        src_text = target[:-1] if move else target
        if isdigits(src_text):
            src = int(src_text)
            if src not in fds or isinstance(fds[src], (ClosedOutput, ClosedInput)):
                raise ShellError(f"{src}: Bad file descriptor", 1)
            _set_fd(sh, r, fds, opened, default, fds[src])
            if move:
                fds[src] = ClosedOutput() if op == ">&" else ClosedInput()
            return
        if op == ">&" and r.fd in (None, 1):
            # >&file and 1>&file are &>file
            stream = _open_output(sh, target, False, opened, not sh.options["noclobber"])
            fds[1] = stream
            fds[2] = stream
            return
        raise ShellError(f"{target}: ambiguous redirect", 1)
    if op in ("&>", "&>>"):
        stream = _open_output(sh, target, op == "&>>", opened, op == "&>>" or not sh.options["noclobber"])
        fds[1] = stream
        fds[2] = stream
        return
    if op == "<":
        _set_fd(sh, r, fds, opened, 0, _open_input(sh, target, opened))
        return
    if op in (">", ">|", ">>"):
        # noclobber refuses only > on an existing file
        clobber = op != ">" or not sh.options["noclobber"]
        stream = _open_output(sh, target, op == ">>", opened, clobber)
        _set_fd(sh, r, fds, opened, 1, stream)
        return
    if op == "<>":
        stream = _open_input(sh, target, opened, create=True)
        _set_fd(sh, r, fds, opened, 0, stream)
        return
    raise ShellError(f"unsupported redirection {op}", 1)


def _held_input(sh: Shell, data: bytes, name: str) -> BytesInput:
    """A here-document's bytes, counted against the shell memory limit while the stream
    lives (a command may keep reading it; ``exec`` keeps it)."""
    stream = BytesInput(data)
    sh.hold_memory(name, len(data) + VALUE_OVERHEAD, stream)
    return stream


def _set_fd(sh: Shell, r, fds: dict, opened: list, default: int, stream) -> None:
    if r.fd_var:
        fd = 10
        while fd in fds or fd in sh.fds:
            fd += 1
        fds[fd] = stream
        sh.set_var(r.fd_var, str(fd))
        if not sh.shopts["varredir_close"]:
            # bash leaves a {var} descriptor open after the command
            sh.fds[fd] = stream
            handle = getattr(stream, "handle", None)
            if handle is not None and handle in opened:
                opened.remove(handle)
        return
    fds[r.fd if r.fd is not None else default] = stream


def _fd_from_var(sh: Shell, name: str) -> int:
    value = sh.get_scalar(name) or ""
    if not isdigits(value):
        raise ShellError(f"{name}: ambiguous redirect", 1)
    return int(value)


def _special_path(target: str):
    if target.startswith("/dev/"):
        if target in ("/dev/stdin", "/dev/fd/0"):
            return 0
        if target in ("/dev/stdout", "/dev/fd/1"):
            return 1
        if target in ("/dev/stderr", "/dev/fd/2"):
            return 2
        if target.startswith("/dev/fd/") and isdigits(target[8:]):
            return int(target[8:])
        if target.startswith(("/dev/tcp/", "/dev/udp/")):
            raise ShellError(f"{target}: network connections are not available in the sandbox", 1)
    return None


def _fd_path_stream(sh: Shell, target: str):
    """The open stream a path like /dev/stdout or /dev/fd/N names; None for other paths."""
    fd = _special_path(target)
    if fd is None:
        return None
    stream = _current_fd(sh, fd)
    if stream is None:
        raise ShellError(f"{target}: Bad file descriptor", 1)
    return stream


def _open_output(sh: Shell, target: str, append: bool, opened: list, clobber: bool = True):
    if target == "":
        raise ShellError(": No such file or directory", 1)
    stream = _fd_path_stream(sh, target)
    if stream is not None:
        return stream
    if target == "/dev/null":
        return NullOutput()
    if sh.resource_limits.open_files_exhausted(_current_fd_table(sh)):
        raise ShellError(f"{target}: Too many open files", 1)
    try:
        if not clobber and sh.fs.exists(target, sh.cwd) and sh.fs.is_file(target, sh.cwd):
            raise ShellError(f"{target}: cannot overwrite existing file", 1)
        handle = sh.fs.open(target, "ab" if append else "wb", sh.cwd, umask=sh.umask)
    except FSError as e:
        raise ShellError(f"{target}: {e.strerror}", 1) from None
    stream = FileOutput(handle)
    opened.append(handle)
    return stream


def _open_input(sh: Shell, target: str, opened: list, create: bool = False):
    stream = _fd_path_stream(sh, target)
    if stream is not None:
        return stream
    if target == "/dev/null":
        return EmptyInput()
    if sh.resource_limits.open_files_exhausted(_current_fd_table(sh)):
        raise ShellError(f"{target}: Too many open files", 1)
    try:
        handle = sh.fs.open(target, "r+b" if create and sh.fs.exists(target, sh.cwd) else
                              ("w+b" if create else "rb"), sh.cwd, umask=sh.umask)
    except FSError as e:
        if e.errno == EISDIR and not create:
            return DirectoryInput()  # a directory opens for reading; reading it fails
        raise ShellError(f"{target}: {e.strerror}", 1) from None
    opened.append(handle)
    if create:
        return ReadWriteFile(handle)
    return FileInput(handle)


def _current_fd_table(sh: Shell) -> dict:
    fds = sh.redir_fds
    return sh.fds if fds is None else fds


def _current_fd(sh: Shell, fd: int):
    return _current_fd_table(sh).get(fd)


async def close_opened(opened: list) -> None:
    close_now(opened)


def close_now(opened: list) -> None:
    for handle in opened:
        try:
            handle.close()
        except Exception:  # noqa: BLE001 - closing never fails the command
            pass


class ReadWriteFile(InputStream, OutputStream):
    """``<>``: one handle, one file offset, for reading and writing (of a named pipe: both
    its ends, which never wait to open)."""

    def __init__(self, handle) -> None:
        self.handle = handle
        self.fifo = getattr(handle, "fifo", False)

    async def read_chunk(self) -> bytes:
        while True:
            try:
                return self.handle.read(65536)
            except BlockingIOError:
                await fifo_change(self.handle)

    async def write(self, data: bytes) -> None:
        if self.fifo:
            await fifo_write(self.handle, data)
            return
        if self._buf:
            # read ahead but not consumed: the offset is where the reader stopped
            self.handle.seek(self.handle.tell() - len(self._buf))
            self._buf = bytearray()
        self._eof = False
        self.handle.write(data)
