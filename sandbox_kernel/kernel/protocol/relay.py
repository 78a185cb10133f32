"""Output of a running cell, as Jupyter messages: coalesced ``stream`` messages, and rich
output (display_data, update_display_data, clear_output) made passive first."""
from __future__ import annotations

import codecs
import re
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from .sanitize import passive_bundle, safe_display_id

#: Output is held at most this long, and a stream gets at most one message per interval.
FLUSH_INTERVAL = 0.05


class StreamRelay:
    """Turns thread-safe byte writes to stdout/stderr into coalesced ``stream`` messages.

    A write after a quiet period is sent at once; otherwise output is gathered and sent by a
    background thread at most every FLUSH_INTERVAL (so a flood of lines makes ~20 messages a
    second, not one per line). Output is sent in the order written: a switch between stdout
    and stderr starts a new segment, and the segments of one flush go out in order."""

    def __init__(self, send: Callable[[str, str], None], interval: float = FLUSH_INTERVAL) -> None:
        self._send = send
        self._interval = interval
        self._cond = threading.Condition()
        self._segments: list[tuple[str, bytearray]] = []
        self._decoders = {name: codecs.getincrementaldecoder("utf-8")("replace")
                          for name in ("stdout", "stderr")}
        self._terminals = {name: TerminalText() for name in ("stdout", "stderr")}
        self._last_flush = 0.0
        self._closed = False
        self._thread = threading.Thread(target=self._flush_loop, name="sandbox-stream-relay", daemon=True)
        self._thread.start()

    def sink(self, name: str) -> "RelaySink":
        return RelaySink(self, name)

    def write(self, name: str, data: bytes) -> None:
        if not data:
            return
        with self._cond:
            if self._segments and self._segments[-1][0] == name:
                self._segments[-1][1].extend(data)
            else:
                self._segments.append((name, bytearray(data)))
            if time.monotonic() - self._last_flush >= self._interval:
                self._flush_locked(final=False)
            else:
                self._cond.notify()

    def flush(self) -> None:
        with self._cond:
            self._flush_locked(final=False)

    def close(self) -> None:
        """Send everything (including a dangling partial UTF-8 sequence) and stop the thread."""
        with self._cond:
            self._flush_locked(final=True)
            self._closed = True
            self._cond.notify()
        self._thread.join(timeout=1)

    def _flush_locked(self, final: bool) -> None:
        segments, self._segments = self._segments, []
        self._last_flush = time.monotonic()
        for name, data in segments:
            text = self._terminals[name].clean(self._decoders[name].decode(bytes(data)))
            if text:
                self._send(name, text)
        if final:
            for name, decoder in self._decoders.items():
                text = self._terminals[name].clean(decoder.decode(b"", final=True), final=True)
                if text:
                    self._send(name, text)

    def _flush_loop(self) -> None:
        with self._cond:
            while not self._closed:
                if not self._segments:
                    self._cond.wait()
                    continue
                delay = self._last_flush + self._interval - time.monotonic()
                if delay > 0:
                    self._cond.wait(delay)
                    continue
                try:
                    self._flush_locked(final=False)
                except Exception:  # a failed send must not kill the relay
                    pass


#: the escape and control sequences a terminal would act on; SGR (colours, bold) is kept
_CSI = r"\x1b\[[0-?]*[ -/]*[@-~]"                  # cursor moves, clear screen, SGR
_OSC = r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"          # title, hyperlinks, clipboard
_STRING = r"\x1b[PX^_][^\x1b]*\x1b\\"                # DCS, SOS, PM, APC
_OTHER = r"\x1b[ -/]*(?![PX\[\]^_])[0-~]"             # two-character escapes
_SEQUENCE = re.compile(f"{_CSI}|{_OSC}|{_STRING}|{_OTHER}|[\\x80-\\x9f]")  # C1: U+009B is CSI too
_OPENERS = {"[": re.compile(_CSI), "]": re.compile(_OSC), "P": re.compile(_STRING), "X": re.compile(_STRING),
            "^": re.compile(_STRING), "_": re.compile(_STRING)}
_SGR = r"\x1b\[[0-9;:]*m"
#: kept SGR (group 1) | a sequence | a lone ESC or another control character: all but SGR go
_UNSAFE = re.compile(f"({_SGR})|{_SEQUENCE.pattern}|[\\x00-\\x07\\x0b\\x0c\\x0e-\\x1f\\x7f]")
#: an unfinished sequence is held for the next chunk up to this many characters
MAX_HELD = 4096


class TerminalText:
    """Stream text with only what renders as text: raw terminal escapes from sandbox code could
    move the cursor, set the title, write the clipboard or spoof output in a terminal frontend
    (jupyter console). Colours (SGR) stay, as do newline, carriage return, tab and backspace.
    A sequence split between two writes is held until its end arrives."""

    def __init__(self) -> None:
        self._held = ""

    def clean(self, text: str, final: bool = False) -> str:
        text = self._held + text
        self._held = ""
        cut = text.rfind("\x1b")
        if not final and cut >= 0 and _unfinished(text[cut:]) and len(text) - cut <= MAX_HELD:
            text, self._held = text[:cut], text[cut:]
        return _UNSAFE.sub(lambda m: m.group(1) or "", text)


def terminal_safe(text: str) -> str:
    """A whole text (not a stream) as ``TerminalText`` keeps it: what a frontend shows as
    plain text (execute_result and display text/plain, error messages and tracebacks, input
    prompts) carries colours but no other escape."""
    return TerminalText().clean(text, final=True)


def _unfinished(tail: str) -> bool:
    """Whether ``tail`` (starting with ESC) is the start of a sequence still to come."""
    if len(tail) == 1:
        return True
    opener = _OPENERS.get(tail[1])
    if opener is not None:
        return not opener.match(tail)
    return not re.match(_OTHER, tail)


@dataclass
class RelaySink:
    """One named stream of a StreamRelay, as the ``OutputSink`` engines write to."""

    relay: StreamRelay
    name: str
    #: what is written here is shown in the notebook, below the cell
    screen: ClassVar[str] = "notebook"

    def write(self, data: bytes) -> None:
        self.relay.write(self.name, data)


class DisplayHook:
    """``Streams.display`` for one cell: display_data / update_display_data messages, and
    ``clear(wait)`` for clear_output. Pending stream output is sent first to keep the order.
    Bundles come from sandbox code: unless the admin allows active output they are made
    passive first (``sanitize``), and what had to be dropped is said on stderr."""

    def __init__(self, publish: Callable[[str, dict], None], relay: StreamRelay,
                 active_output: bool = False) -> None:
        self._publish = publish
        self._relay = relay
        self._active = active_output

    def __call__(self, data: dict, metadata: dict | None = None, display_id: str | None = None,
                 update: bool = False) -> None:
        data, metadata = safe_output(data, metadata, self._active, self._relay.sink("stderr"))
        if not data:
            return
        self._relay.flush()
        content: dict[str, Any] = {"data": data, "metadata": metadata}
        if display_id is not None:
            content["transient"] = {"display_id": safe_display_id(display_id)}
        self._publish("update_display_data" if update else "display_data", content)

    def clear(self, wait: bool = False) -> None:
        self._relay.flush()
        self._publish("clear_output", {"wait": bool(wait)})


def safe_output(data: dict, metadata: dict | None, active: bool, notices) -> tuple[dict, dict]:
    """A bundle from sandbox code as it may be sent: passive unless the admin allows active
    output (a notice on ``notices`` names each part that was dropped); its text/plain, which
    terminal frontends print as is, without escapes but colours, whatever the policy."""
    if not active:
        data, metadata, notes = passive_bundle(data, metadata)
        for note in notes:
            notices.write(f"[sandbox: {note} (active output is off in this kernel's policy)]\n".encode())
    text = data.get("text/plain")
    if isinstance(text, str):
        data = {**data, "text/plain": terminal_safe(text)}
    elif isinstance(text, list):
        data = {**data, "text/plain": [terminal_safe(t) if isinstance(t, str) else t for t in text]}
    return data, metadata or {}
