"""Driving a real kernel subprocess with jupyter_client."""
import time
from contextlib import contextmanager
from queue import Empty

from jupyter_client.manager import start_new_kernel


@contextmanager
def running_kernel(name="sandbox"):
    km, kc = start_new_kernel(kernel_name=name, startup_timeout=60)
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


def run_ok(kc, code, timeout=30):
    """stdout of a cell that must succeed."""
    reply, messages = execute(kc, code, timeout)
    assert reply["status"] == "ok", (code, reply, stream_text(messages, "stderr"))
    return stream_text(messages)


def interrupt_after_output(km, kc, code, marker_seen=lambda m: True, timeout=15, wait_for=1.0):
    """Run ``code``, interrupt once a message satisfying ``marker_seen`` arrived (or after
    ``wait_for`` s), return (reply content, messages, seconds from interrupt to reply)."""
    msg_id = kc.execute(code)
    messages = []
    deadline = time.monotonic() + wait_for
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
                break
    time.sleep(0.3)
    started = time.monotonic()
    km.interrupt_kernel()
    reply = shell_reply(kc, msg_id, timeout)
    elapsed = time.monotonic() - started
    messages += collect(kc, msg_id, timeout)
    return reply["content"], messages, elapsed
