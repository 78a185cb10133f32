"""Driving a real kernel subprocess with jupyter_client: the one set of helpers every
kernel-level test uses (fixtures over them are in tests/conftest.py)."""
import re
import time
import uuid
from contextlib import contextmanager
from queue import Empty

from jupyter_client.manager import start_new_kernel

ANSI = re.compile(r"\x1b\[[0-9;?]*[@-~]")


@contextmanager
def start_kernel(name="sandbox", **kw):
    """(KernelManager, client) of a new kernel of kernelspec ``name``; ``kw`` goes to
    ``start_kernel`` (cwd=, env=, extra_arguments=)."""
    km, kc = start_new_kernel(kernel_name=name, startup_timeout=60, **kw)
    try:
        yield km, kc
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def collect(kc, msg_id, timeout=30, on_message=None):
    """IOPub messages of one request (in arrival order) up to its idle status."""
    messages = []
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"no idle status within {timeout} s; got {[m['msg_type'] for m in messages]}")
        try:
            msg = kc.get_iopub_msg(timeout=min(remaining, 1))
        except Empty:
            continue
        if msg["parent_header"].get("msg_id") != msg_id:
            TerminalComm.route(msg)  # an open terminal's output is not lost while a cell runs
            continue
        if on_message:
            on_message(msg)
        if msg["msg_type"] == "status":
            if msg["content"]["execution_state"] == "idle":
                return messages
            continue
        if msg["msg_type"] != "execute_input":
            messages.append(msg)


def shell_reply(kc, msg_id, timeout=30):
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"no reply to {msg_id} within {timeout} s")
        try:
            msg = kc.get_shell_msg(timeout=remaining)
        except Empty:
            continue
        if msg["parent_header"].get("msg_id") == msg_id:
            return msg


def execute(kc, code, timeout=30, **kw):
    """(reply content, iopub messages) of one cell."""
    msg_id = kc.execute(code, **kw)
    messages = collect(kc, msg_id, timeout)
    return shell_reply(kc, msg_id, timeout)["content"], messages


def stream_text(messages, name="stdout"):
    return "".join(m["content"]["text"] for m in messages
                   if m["msg_type"] == "stream" and m["content"]["name"] == name)


def notice_text(messages):
    """The kernel's own notices (restored workspace, mounts, files not kept) as a client
    without a notices comm gets them: the text/plain of display_data under the cell."""
    return "".join(m["content"]["data"].get("text/plain", "") + "\n" for m in messages
                   if m["msg_type"] == "display_data" and "[sandbox: " in m["content"]["data"].get("text/plain", ""))


def output_text(messages):
    """stdout and the text/plain of results, in order."""
    parts = []
    for m in messages:
        if m["msg_type"] == "stream" and m["content"]["name"] == "stdout":
            parts.append(m["content"]["text"])
        elif m["msg_type"] == "execute_result":
            parts.append(m["content"]["data"].get("text/plain", ""))
    return "".join(parts)


def run_ok(kc, code, timeout=30):
    """stdout of a cell that must succeed."""
    reply, messages = execute(kc, code, timeout)
    assert reply["status"] == "ok", (code, reply, stream_text(messages, "stderr"))
    return stream_text(messages)


def wait_for_message(kc, msg_id, marker_seen, timeout=60):
    """IOPub messages of request ``msg_id`` up to (and including) the first one that satisfies
    ``marker_seen``; fails if none arrives within ``timeout`` (an event, not a guess of time)."""
    messages = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            msg = kc.get_iopub_msg(timeout=0.1)
        except Empty:
            continue
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] not in ("status", "execute_input"):
            messages.append(msg)
            if marker_seen(msg):
                return messages
    raise AssertionError(f"no expected message within {timeout} s; got {[m['msg_type'] for m in messages]}")


def stream_contains(text):
    """A ``marker_seen`` for wait_for_message: a stream message containing ``text``."""
    return lambda m: m["msg_type"] == "stream" and text in m["content"]["text"]


def interrupt_after_output(km, kc, code, marker_seen=None, timeout=15, wait_for=60):
    """Run ``code``, interrupt once a message satisfying ``marker_seen`` arrived (by default:
    the cell printed "started", so the interrupt never comes before the cell runs), return
    (reply content, messages, seconds from interrupt to reply)."""
    marker_seen = marker_seen or stream_contains("started")
    msg_id = kc.execute(code)
    messages = wait_for_message(kc, msg_id, marker_seen, wait_for)
    time.sleep(0.3)
    started = time.monotonic()
    km.interrupt_kernel()
    reply = shell_reply(kc, msg_id, timeout)
    elapsed = time.monotonic() - started
    messages += collect(kc, msg_id, timeout)
    return reply["content"], messages, elapsed


class TerminalComm:
    """A sandbox.terminal comm opened by hand on a kernel client: ``shell`` "sh" (the emulated
    shell, prompt ``user@sandbox:``) or "vm" (a login shell in the VM, prompt ``user@vm:``)."""

    #: the open terminals by comm id: whichever waits routes the messages of all
    by_id: dict[str, "TerminalComm"] = {}

    def __init__(self, kc, cols=80, rows=24, shell="sh"):
        self.kc = kc
        self.prompt = "user@vm:" if shell == "vm" else "user@sandbox:"
        self.comm_id = uuid.uuid4().hex
        self.screen = ""
        self.exit_status = None
        TerminalComm.by_id[self.comm_id] = self
        kc.shell_channel.send(kc.session.msg("comm_open", {"comm_id": self.comm_id, "target_name": "sandbox.terminal",
                                                           "data": {"cols": cols, "rows": rows, "shell": shell}}))

    def send(self, keys: str) -> None:
        self.kc.shell_channel.send(self.kc.session.msg("comm_msg", {"comm_id": self.comm_id,
                                                                    "data": {"type": "input", "data": keys}}))

    def resize(self, cols, rows) -> None:
        self.kc.shell_channel.send(self.kc.session.msg("comm_msg", {"comm_id": self.comm_id, "data": {
            "type": "resize", "cols": cols, "rows": rows}}))

    def text(self) -> str:
        """The lines as a terminal shows them: a carriage return starts the line over (the
        editor redraws prompt and line after every edit)."""
        lines = ANSI.sub("", self.screen).split("\n")
        return "\n".join(line.rstrip("\r").rsplit("\r", 1)[-1] for line in lines)

    def wait_for(self, condition, timeout=30) -> str:
        check = (lambda t: condition in t) if isinstance(condition, str) else condition
        deadline = time.monotonic() + timeout
        while not check(self.text()):
            if time.monotonic() > deadline:
                raise AssertionError(f"not in the terminal within {timeout} s:\n{self.text()[-2000:]}")
            try:
                msg = self.kc.get_iopub_msg(timeout=0.2)
            except Exception:
                continue
            TerminalComm.route(msg)
        return self.text()

    @staticmethod
    def route(msg) -> None:
        """Give an IOPub message to the open terminal it is for, if any."""
        terminal = TerminalComm.by_id.get(msg["content"].get("comm_id", "")) if msg["msg_type"] == "comm_msg" else None
        if terminal is not None:
            data = msg["content"]["data"]
            if data.get("type") == "output":
                terminal.screen += data["data"]
            elif data.get("type") == "exit":
                terminal.exit_status = data["status"]

    def prompts(self) -> int:
        return self.text().count(self.prompt)

    def run(self, keys: str, timeout=30) -> str:
        """Type ``keys`` (ending in Enter), wait for the next prompt; the text since this command."""
        before, start = self.prompts(), len(self.text())
        self.send(keys)
        return self.wait_for(lambda t: t.count(self.prompt) > before, timeout)[start:]

    def close(self) -> None:
        TerminalComm.by_id.pop(self.comm_id, None)
        self.kc.shell_channel.send(self.kc.session.msg("comm_close", {"comm_id": self.comm_id, "data": {}}))
