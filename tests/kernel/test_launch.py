"""The kernel binds its sockets before ipykernel loads (kernel/launch.py)."""
import json
import socket
import subprocess
import sys
import time

import zmq

from sandbox_kernel.kernel.launch import bind_early, connection_file


def _ports(n):
    out = []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        out.append(s.getsockname()[1])
        s.close()
    return out


def _connection(tmp_path, **extra):
    shell, iopub, stdin, control, hb = _ports(5)
    info = {"shell_port": shell, "iopub_port": iopub, "stdin_port": stdin, "control_port": control,
            "hb_port": hb, "ip": "127.0.0.1", "key": "k", "transport": "tcp",
            "signature_scheme": "hmac-sha256", **extra}
    path = tmp_path / "kernel.json"
    path.write_text(json.dumps(info))
    return path, info


def test_connection_file_forms():
    assert connection_file(["--network", "none", "-f", "a.json"]) == "a.json"
    assert connection_file(["-f=b.json"]) == "b.json"
    assert connection_file(["--f=c.json"]) == "c.json"
    assert connection_file(["--debug"]) is None


def test_binds_the_four_channels_of_the_connection_file(tmp_path):
    path, info = _connection(tmp_path)
    early = bind_early(["-f", str(path)])
    try:
        assert early is not None
        types = {port: s.type for port, s in early.sockets.items()}
        assert types == {info["shell_port"]: zmq.ROUTER, info["stdin_port"]: zmq.ROUTER,
                         info["control_port"]: zmq.ROUTER, info["iopub_port"]: zmq.XPUB}
        assert early.take(info["iopub_port"], zmq.ROUTER, "127.0.0.1") is None  # wrong type
        assert early.take(info["iopub_port"], zmq.XPUB, "127.0.0.1") is not None
        assert early.take(info["iopub_port"], zmq.XPUB, "127.0.0.1") is None  # taken once
    finally:
        early.close()
        early.context.term()


def test_leaves_unusual_connections_to_ipykernel(tmp_path):
    assert bind_early(["-f", str(tmp_path / "missing.json")]) is None
    path, _ = _connection(tmp_path, transport="ipc")
    assert bind_early(["-f", str(path)]) is None
    path, _ = _connection(tmp_path, curve_secretkey="x" * 40)
    assert bind_early(["-f", str(path)]) is None
    path, info = _connection(tmp_path)
    busy = zmq.Context.instance().socket(zmq.ROUTER)
    busy.bind("tcp://127.0.0.1:%i" % info["shell_port"])  # a port in use: ipykernel reports it
    try:
        assert bind_early(["-f", str(path)]) is None
    finally:
        busy.close(linger=0)


def test_a_request_sent_while_the_kernel_loads_is_answered(tmp_path):
    """The client connects and sends kernel_info at once; the kernel process answers it on the
    socket bound early, and its IOPub says hello to the subscription made meanwhile."""
    from jupyter_client import BlockingKernelClient

    path, _ = _connection(tmp_path)
    proc = subprocess.Popen([sys.executable, "-P", "-m", "sandbox_kernel", "kernel", "-f", str(path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kc = BlockingKernelClient(connection_file=str(path))
    kc.load_connection_file()
    kc.start_channels()
    try:
        start = time.monotonic()
        kc.kernel_info()
        reply = kc.get_shell_msg(timeout=60)
        assert reply["msg_type"] == "kernel_info_reply"
        assert reply["content"]["implementation"] == "sandbox_kernel"
        kinds = set()
        while time.monotonic() - start < 60 and "status" not in kinds:
            kinds.add(kc.get_iopub_msg(timeout=60)["msg_type"])
        assert "status" in kinds
        assert kc.execute_interactive("echo $((6*7))", timeout=60)["content"]["status"] == "ok"
    finally:
        kc.shutdown()
        kc.stop_channels()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
