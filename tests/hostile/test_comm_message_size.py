"""A hostile frontend's huge messages (issue #28): a 600 MiB base64 comm write took the kernel's
peak memory up by 2.4 GiB (the session, the JSON decoder and base64 each copied it). Messages
are now measured on their raw frames and refused before anything is decoded, with a reply."""
import base64
import hmac
import json
import uuid

from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox_kernel.kernel.protocol import message_size
from tests.support.kernelclient import TerminalComm, run_ok, start_kernel

MiB = 1 << 20


def peak_and_now(km) -> tuple[int, int]:
    """The kernel process's peak and current resident memory (bytes)."""
    fields = {}
    with open(f"/proc/{km.provisioner.process.pid}/status") as f:
        for line in f:
            name, _, value = line.partition(":")
            fields[name] = value.split()
    return int(fields["VmHWM"][0]) * 1024, int(fields["VmRSS"][0]) * 1024


def iopub_until(kc, condition, limit=200):
    for _ in range(limit):
        msg = kc.get_iopub_msg(timeout=30)
        TerminalComm.route(msg)
        if condition(msg):
            return msg
    raise AssertionError("the message never came")


def test_huge_comm_and_execute_messages_are_refused_before_decoding(jupyter_kernels):
    with start_kernel("sandbox") as (km, kc):
        assert run_ok(kc, "echo ready") == "ready\n"
        comm_id = uuid.uuid4().hex
        kc.shell_channel.send(kc.session.msg("comm_open", {
            "comm_id": comm_id, "target_name": "sandbox.vfs", "data": {"encoding": "base64"}}))
        iopub_until(kc, lambda m: m["msg_type"] == "comm_msg" and m["content"]["data"].get("event") == "open")
        _, before = peak_and_now(km)
        size = 120 * MiB
        payload = base64.b64encode(b"\0" * size).decode()
        kc.shell_channel.send(kc.session.msg("comm_msg", {"comm_id": comm_id, "data": {
            "id": 1, "op": "write", "path": "/workspace/big", "buffers_base64": [payload]}}))
        del payload
        error = iopub_until(kc, lambda m: m["msg_type"] == "comm_msg" and m["content"]["comm_id"] == comm_id
                            and m["content"]["data"].get("event") == "error")["content"]["data"]["error"]
        assert error["code"] == "EMSGSIZE" and error["message"].startswith("message of 160M refused: a message's "
                                                                           "JSON may take at most 8M")
        peak, _ = peak_and_now(km)
        # the frames themselves (160 MiB of base64) arrive; nothing is decoded or copied
        assert peak - before < 1.5 * (size * 4 // 3), (peak - before) / MiB
        # a request gets an error reply of its type
        msg_id = kc.execute("echo " + "x" * (9 * MiB))
        reply = kc.get_shell_msg(timeout=60)
        assert reply["parent_header"]["msg_id"] == msg_id and reply["msg_type"] == "execute_reply"
        assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "MessageTooLarge"
        # a terminal is told on its screen; the kernel goes on
        terminal = TerminalComm(kc)
        terminal.wait_for("$ ")
        terminal.send("x" * (9 * MiB))
        assert "sandbox terminal: message of 9M refused" in terminal.wait_for("refused")
        assert "hi\n" in terminal.run("echo hi\r")
        terminal.close()
        assert run_ok(kc, "echo alive; ls /workspace") == "alive\n"


# ----------------------------------------------------------------- the check itself, fuzzed
KEY = b"secret-key"


def signed(parts: list[bytes]) -> bytes:
    mac = hmac.new(KEY, digestmod="sha256")
    for part in parts:
        mac.update(part)
    return mac.hexdigest().encode()


def test_the_check_reads_only_what_it_needs_and_believes_only_signed_messages():
    header = json.dumps({"msg_id": "1", "msg_type": "comm_msg"}).encode()
    content = b'{"comm_id": "abc", "data": "' + b"x" * (message_size.MAX_JSON_BYTES) + b'"}'
    parts = [header, b"{}", b"{}", content]
    auth = hmac.new(KEY, digestmod="sha256")
    refused = message_size.check([b"route", message_size.DELIM, signed(parts), *parts], 0, auth)
    assert refused is not None and refused.comm_id == "abc" and refused.header["msg_type"] == "comm_msg"
    assert refused.idents == [b"route"]
    forged = message_size.check([message_size.DELIM, b"0" * 64, *parts], 0, auth)
    assert forged is not None and forged.header is None and forged.comm_id is None  # refused, not answered
    small = [header, b"{}", b"{}", b'{"comm_id": "abc"}']
    assert message_size.check([message_size.DELIM, signed(small), *small], 0, auth) is None
    buffers = message_size.check([message_size.DELIM, signed(small), *small, b"b" * 100], 99, auth)
    assert buffers is not None and "buffers refused" in buffers.why


frames = st.lists(st.one_of(st.binary(max_size=64), st.just(message_size.DELIM),
                            st.sampled_from([b"{}", b'{"msg_type": "execute_request"}', b"[]", b'{"comm_id": "\\"}'])),
                  max_size=12)


@settings(max_examples=200, deadline=None)
@given(frames=frames, max_buffers=st.integers(0, 100))
def test_the_check_never_raises_on_hostile_frames(frames, max_buffers):
    refused = message_size.check(frames, max_buffers, hmac.new(KEY, digestmod="sha256"), max_json=16)
    assert refused is None or (refused.why and (refused.header is None or isinstance(refused.header, dict)))
