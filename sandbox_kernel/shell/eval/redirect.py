"""Redirections: opening files and wiring file descriptors for a command.

A mixin of the interpreter's ``Shell``, which owns the state: it needs ``fs``, ``cwd``,
``umask``, ``resource_limits``, ``options``, ``fds``, ``expand_word``/``expand_redirect_target``/
``expand_heredoc``, ``set_var``/``get_scalar``/``hold_memory``, ``report``, ``handle_error``, and
``procsub_files``/``finish_procsubs`` (process substitutions end with the command they belong to).
"""
from __future__ import annotations

from ...chars import isdigits
from ...streams import (BytesInput, ClosedInput, ClosedOutput, EmptyInput, FileInput, FileOutput, InputStream,
    NullOutput, OutputStream, DirectoryInput, fifo_change, fifo_write)
from ...vfs import FSError
from ...vfs.errors import EISDIR
from ..state import ShellError
from ..syntax.ast import HereDoc
from .variables import VALUE_OVERHEAD


def redirect_now(r) -> bool:
    """Whether ``apply_redirs_now`` can apply ``r``: to or from a file or fd (its target
    expanded by the caller), or a quoted here-document (nothing to wait for)."""
    if r.fd_var is not None:
        return False
    if r.op in ("<<", "<<-"):
        doc = r.target
        return doc.quoted and len(doc.body.parts) <= 1
    return r.op != "<<<"


class Redirections:
    """Applying ``>``, ``<``, ``>>``, ``<&``, ``<<`` ... to an fd table."""

    #: the fd table being redirected (what /dev/stdout or /dev/fd/N names meanwhile)
    _redir_fds: dict | None = None
    #: the fd table of the command being run (command substitutions and traps write there)
    current_fds: dict | None = None

    async def with_redirs(self, node, fds: dict, runner) -> int:
        if not node.redirs:
            return await runner(fds)
        procsub_mark = len(self.procsub_files)
        try:
            fds, opened = await self.apply_redirs(node.redirs, fds)
        except ShellError as e:
            return await self.handle_error(e, fds)
        # command substitutions in the command's own words see its redirections
        saved_current, self.current_fds = self.current_fds, fds
        try:
            return await runner(fds)
        finally:
            self.current_fds = saved_current
            await self.close_opened(opened)
            if len(self.procsub_files) > procsub_mark:
                await self.finish_procsubs(procsub_mark)

    async def apply_redirs(self, redirs: list, fds: dict, permanent: bool = False) -> tuple[dict, list]:
        """A new fd table with ``redirs`` applied (or ``fds`` changed in place when
        ``permanent``), and the streams opened here (to close afterwards)."""
        new = fds if permanent else dict(fds)
        opened: list = []
        saved = self._redir_fds
        try:
            for r in redirs:
                await self._apply_one(r, new, opened)
        except BaseException:
            await self.close_opened(opened)
            raise
        finally:
            # not kept past the command: its streams (a here-document's text) go with it
            self._redir_fds = saved
        return new, opened

    def apply_redirs_now(self, redirs: list, targets: list, fds: dict) -> tuple[dict, list]:
        """``apply_redirs`` of redirections ``redirect_now`` allows, ``targets`` their
        expanded targets (None for a here-document)."""
        new = dict(fds)
        opened: list = []
        saved = self._redir_fds
        try:
            for r, target in zip(redirs, targets):
                self._redir_fds = new
                if target is None:
                    self._set_heredoc(r, new, opened, r.target.body.parts[0].text if r.target.body.parts else "")
                else:
                    self._apply_target(r, new, opened, target)
        except BaseException:
            self.close_now(opened)
            raise
        finally:
            self._redir_fds = saved
        return new, opened

    async def _apply_one(self, r, fds: dict, opened: list) -> None:
        op = r.op
        self._redir_fds = fds
        if op in ("<<", "<<-"):
            doc: HereDoc = r.target
            text = doc.body.parts[0].text if doc.quoted and doc.body.parts else (
                await self.expand_heredoc(doc.body) if not doc.quoted else "")
            self._set_heredoc(r, fds, opened, text)
            return
        if op == "<<<":
            text = await self.expand_word(r.target)
            data = (text + "\n").encode("utf-8", "surrogateescape")
            self._set_fd(r, fds, opened, 0, self._held_input(data, "here-string"))
            return
        self._apply_target(r, fds, opened, await self.expand_redirect_target(r.target))

    def _set_heredoc(self, r, fds: dict, opened: list, text: str) -> None:
        self._set_fd(r, fds, opened, 0, self._held_input(text.encode("utf-8", "surrogateescape"), "here-document"))

    def _apply_target(self, r, fds: dict, opened: list, target: str) -> None:
        """A redirection to or from a file or fd, ``target`` expanded."""
        op = r.op
        if op in ("<&", ">&"):
            default = 0 if op == "<&" else 1
            fd = r.fd if r.fd is not None else default
            if target == "-":
                if r.fd_var:
                    fd = self._fd_from_var(r.fd_var)
                fds[fd] = ClosedOutput() if op == ">&" else ClosedInput()
                return
            move = target.endswith("-") and isdigits(target[:-1])
            src_text = target[:-1] if move else target
            if isdigits(src_text):
                src = int(src_text)
                if src not in fds or isinstance(fds[src], (ClosedOutput, ClosedInput)):
                    raise ShellError(f"{src}: Bad file descriptor", 1)
                self._set_fd(r, fds, opened, default, fds[src])
                if move:
                    fds[src] = ClosedOutput() if op == ">&" else ClosedInput()
                return
            if op == ">&" and r.fd in (None, 1):
                # >&file and 1>&file are &>file
                stream = self._open_output(target, False, opened, not self.options["noclobber"])
                fds[1] = stream
                fds[2] = stream
                return
            raise ShellError(f"{target}: ambiguous redirect", 1)
        if op in ("&>", "&>>"):
            stream = self._open_output(target, op == "&>>", opened, op == "&>>" or not self.options["noclobber"])
            fds[1] = stream
            fds[2] = stream
            return
        if op == "<":
            self._set_fd(r, fds, opened, 0, self._open_input(target, opened))
            return
        if op in (">", ">|", ">>"):
            # noclobber refuses only > on an existing file
            clobber = op != ">" or not self.options["noclobber"]
            stream = self._open_output(target, op == ">>", opened, clobber)
            self._set_fd(r, fds, opened, 1, stream)
            return
        if op == "<>":
            stream = self._open_input(target, opened, create=True)
            self._set_fd(r, fds, opened, 0, stream)
            return
        raise ShellError(f"unsupported redirection {op}", 1)

    def _held_input(self, data: bytes, name: str) -> BytesInput:
        """A here-document's bytes, counted against the shell memory limit while the stream
        lives (a command may keep reading it; ``exec`` keeps it)."""
        stream = BytesInput(data)
        self.hold_memory(name, len(data) + VALUE_OVERHEAD, stream)
        return stream

    def _set_fd(self, r, fds: dict, opened: list, default: int, stream) -> None:
        if r.fd_var:
            fd = 10
            while fd in fds or fd in self.fds:
                fd += 1
            fds[fd] = stream
            self.set_var(r.fd_var, str(fd))
            if not self.shopts["varredir_close"]:
                # bash leaves a {var} descriptor open after the command
                self.fds[fd] = stream
                handle = getattr(stream, "handle", None)
                if handle is not None and handle in opened:
                    opened.remove(handle)
            return
        fds[r.fd if r.fd is not None else default] = stream

    def _fd_from_var(self, name: str) -> int:
        value = self.get_scalar(name) or ""
        if not isdigits(value):
            raise ShellError(f"{name}: ambiguous redirect", 1)
        return int(value)

    def _special_path(self, target: str):
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

    def _fd_path_stream(self, target: str):
        """The open stream a path like /dev/stdout or /dev/fd/N names; None for other paths."""
        fd = self._special_path(target)
        if fd is None:
            return None
        stream = self._current_fd(fd)
        if stream is None:
            raise ShellError(f"{target}: Bad file descriptor", 1)
        return stream

    def _open_output(self, target: str, append: bool, opened: list, clobber: bool = True):
        if target == "":
            raise ShellError(": No such file or directory", 1)
        stream = self._fd_path_stream(target)
        if stream is not None:
            return stream
        if target == "/dev/null":
            return NullOutput()
        if self.resource_limits.open_files_exhausted(self._current_fd_table()):
            raise ShellError(f"{target}: Too many open files", 1)
        try:
            if not clobber and self.fs.exists(target, self.cwd) and self.fs.is_file(target, self.cwd):
                raise ShellError(f"{target}: cannot overwrite existing file", 1)
            handle = self.fs.open(target, "ab" if append else "wb", self.cwd, umask=self.umask)
        except FSError as e:
            raise ShellError(f"{target}: {e.strerror}", 1) from None
        stream = FileOutput(handle)
        opened.append(handle)
        return stream

    def _open_input(self, target: str, opened: list, create: bool = False):
        stream = self._fd_path_stream(target)
        if stream is not None:
            return stream
        if target == "/dev/null":
            return EmptyInput()
        if self.resource_limits.open_files_exhausted(self._current_fd_table()):
            raise ShellError(f"{target}: Too many open files", 1)
        try:
            handle = self.fs.open(target, "r+b" if create and self.fs.exists(target, self.cwd) else
                                  ("w+b" if create else "rb"), self.cwd, umask=self.umask)
        except FSError as e:
            if e.errno == EISDIR and not create:
                return DirectoryInput()  # a directory opens for reading; reading it fails
            raise ShellError(f"{target}: {e.strerror}", 1) from None
        opened.append(handle)
        if create:
            return ReadWriteFile(handle)
        return FileInput(handle)

    def _current_fd_table(self) -> dict:
        fds = self._redir_fds
        return self.fds if fds is None else fds

    def _current_fd(self, fd: int):
        return self._current_fd_table().get(fd)

    async def close_opened(self, opened: list) -> None:
        self.close_now(opened)

    def close_now(self, opened: list) -> None:
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
