"""The egress access log: one record per connection the proxy allowed, denied or failed,
malformed and never-completed requests included (denied, host ``-``).

Records are what the notebook's ``%vm egress`` shows and what the admin's ``--egress-log``
file receives (JSON lines, append-only, created 0600). A record names hosts, ports, byte
counts and which secrets were put in; never headers, paths or secret values.

A guest decides how many connections it opens, so what reaches the admin's file (and the
kernel's log) is bounded per kernel: a token bucket of records (LOG_RATE a second, LOG_BURST at
once) with the records over it summed up in one ``suppressed`` record, and at most
LOG_FILE_CAP bytes, the last record saying so (``log-full``).
"""
from __future__ import annotations

import html
import json
import logging
import os
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Protocol

log = logging.getLogger(__name__)
KEEP = 1000  # records a kernel keeps for %vm egress
LOG_RATE = 5.0          # records a second a kernel may write to the admin's file ...
LOG_BURST = 300         # ... and at once
LOG_FILE_CAP = 16 << 20  # bytes a kernel writes to the admin's file at most


@dataclass
class AccessRecord:
    method: str                 # CONNECT, GET, ...; "-" when the request could not be read
    host: str                   # "-" when the request named none the proxy could read
    port: int | None
    verdict: str = "allowed"    # allowed | denied | failed
    reason: str = ""
    mode: str = ""              # http | tunnel | tls-terminated
    time: float = field(default_factory=time.time)
    bytes_up: int = 0           # guest -> host, as the guest sent them
    bytes_down: int = 0         # host -> guest
    secrets: list[str] = field(default_factory=list)
    open: bool = True
    duration: float = 0.0

    def as_dict(self) -> dict:
        return {"time": round(self.time, 3), "method": self.method, "host": self.host, "port": self.port,
                "verdict": self.verdict, "reason": self.reason, "mode": self.mode, "bytes_up": self.bytes_up,
                "bytes_down": self.bytes_down, "secrets": list(self.secrets), "duration": round(self.duration, 3)}

    @property
    def target(self) -> str:
        """``host:port``, or ``-`` for a request the proxy could not read."""
        return self.host if self.port is None else f"{self.host}:{self.port}"

    def line(self) -> str:
        """One line of text, e.g. ``12:00:01 ALLOWED CONNECT pypi.org:443 up 1.2K down 40K``."""
        parts = [time.strftime("%H:%M:%S", time.localtime(self.time)), self.verdict.upper(),
                 f"{self.method} {self.target}"]
        if self.verdict == "allowed":
            parts.append(f"up {_size(self.bytes_up)} down {_size(self.bytes_down)}" + (" (open)" if self.open else ""))
        if self.secrets:
            parts.append("secrets " + ",".join(self.secrets))
        if self.reason:
            parts.append(f"({self.reason})")
        return " ".join(parts)


class AccessSink(Protocol):
    """Where records go: ``opened`` when the verdict is known, ``closed`` when the connection ended
    (the byte counts are final then; denied accesses are closed at once)."""

    def opened(self, record: AccessRecord) -> None: ...

    def closed(self, record: AccessRecord) -> None: ...


class AccessLog:
    """A kernel's log: the last KEEP records in memory, and the admin's file if configured."""

    def __init__(self, path: str | None = None, owner: str = "", rate: float = LOG_RATE, burst: int = LOG_BURST,
                 file_cap: int = LOG_FILE_CAP, clock: Callable[[], float] = time.monotonic) -> None:
        self.records: deque[AccessRecord] = deque(maxlen=KEEP)
        self.path = path
        self.owner = owner or f"pid {os.getpid()}"
        self.file_error: str | None = None
        self._fd: int | None = None
        self.rate, self.burst, self.file_cap, self._clock = rate, burst, file_cap, clock
        self._tokens, self._refilled = float(burst), clock()
        self._suppressed: AccessRecord | None = None  # the sum of the records over the rate
        self._counts: dict[str, int] = {}             # ... and how many of each verdict
        self.written = 0  # bytes this kernel wrote to the file

    def opened(self, record: AccessRecord) -> None:
        self.records.append(record)

    def closed(self, record: AccessRecord) -> None:
        """The finished record goes to the kernel's log and the admin's file, within the rate."""
        if not self._take():
            self._suppress(record)
            return
        self._write_suppressed()
        log.info("vm egress: %s", record.line())
        self._write(record)

    def close(self) -> None:
        self._write_suppressed()
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)

    def _take(self) -> bool:
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._refilled) * self.rate)
        self._refilled = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def _suppress(self, record: AccessRecord) -> None:
        total = self._suppressed
        if total is None:
            total = self._suppressed = AccessRecord("-", "-", None, verdict="suppressed", open=False,
                                                    time=record.time)
            self._counts = {}
        self._counts[record.verdict] = self._counts.get(record.verdict, 0) + 1
        total.bytes_up += record.bytes_up
        total.bytes_down += record.bytes_down
        total.secrets.extend(n for n in record.secrets if n not in total.secrets)

    def _write_suppressed(self) -> None:
        """One record for all that were over the rate since the last written one: their count
        by verdict and their bytes."""
        total, self._suppressed = self._suppressed, None
        if total is None:
            return
        count = sum(self._counts.values())
        verdicts = ", ".join(f"{n} {verdict}" for verdict, n in sorted(self._counts.items()))
        total.reason = (f"{count} records not written: more than {self.rate:g} a second "
                        f"(burst {self.burst}) from this kernel; {verdicts}; their bytes are counted here")
        log.warning("vm egress: %s", total.reason)
        self._write(total)

    def _write(self, record: AccessRecord) -> None:
        if self.path is None or self.file_error:
            return
        line = json.dumps({"kernel": self.owner, **record.as_dict()}, ensure_ascii=True) + "\n"
        full = self.written + len(line) > self.file_cap
        if full:
            final = AccessRecord("-", "-", None, verdict="log-full", open=False, reason=(
                f"this kernel wrote {self.written} bytes to the egress log, its cap is {self.file_cap}: "
                f"no further records of it are written here (%vm egress keeps its last {KEEP})"))
            line = json.dumps({"kernel": self.owner, **final.as_dict()}, ensure_ascii=True) + "\n"
        try:
            if self._fd is None:
                self._fd = os.open(
                    self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600
                )
            os.write(self._fd, line.encode())  # one write: one line
            self.written += len(line)
        except OSError as e:
            self.file_error = f"cannot write the admin's egress log {self.path}: {e.strerror or e}"
            log.warning("vm egress: %s", self.file_error)
            return
        if full:
            self.file_error = f"the admin's egress log {self.path} is full for this kernel ({self.file_cap} bytes)"
            log.warning("vm egress: %s", self.file_error)

    def lines(self) -> list[str]:
        return [r.line() for r in self.records]

    def table(self, last: int = 50) -> dict:
        """``%vm egress``: the last records as text/plain and a small HTML table."""
        rows = list(self.records)[-last:]
        header = ("time", "verdict", "request", "host", "up", "down", "secrets", "note")
        cells = [(time.strftime("%H:%M:%S", time.localtime(r.time)), r.verdict, r.method, r.target,
                  _size(r.bytes_up), _size(r.bytes_down), ",".join(r.secrets),
                  "; ".join(x for x in (r.mode, r.reason, "open" if r.open and r.verdict == "allowed" else "") if x))
                 for r in rows]
        total = len(self.records)
        title = (f"vm egress: {total} access{'es' if total != 1 else ''} logged"
                 + (f", the last {len(rows)} shown" if len(rows) < total else ""))
        notes = [title] + ([f"warning: {self.file_error}"] if self.file_error else [])
        if not rows:
            return {"text/plain": "\n".join(notes + ["(no network access yet)"])}
        widths = [max(len(str(c)) for c in col) for col in zip(header, *cells)]
        text = [title] + ["  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip() for row in (header, *cells)]
        if self.file_error:
            text.append(f"warning: {self.file_error}")
        head_html = "".join(f"<th>{h}</th>" for h in header)
        body_html = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in cells)
        return {"text/plain": "\n".join(text),
                "text/html": f"<p>{html.escape(' — '.join(notes))}</p><table><tr>{head_html}</tr>{body_html}</table>"}


def _size(n: int) -> str:
    for unit, scale in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.1f}{unit}"
    return str(n)
