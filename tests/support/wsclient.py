"""A kernel over a Jupyter server's REST API and kernel websocket (the legacy wire protocol that
gateways speak), for tests that drive Kernel or Enterprise Gateway without a browser."""
from __future__ import annotations

import json
import struct
import time
import urllib.request
import uuid

import websocket


class GatewayKernel:
    """One kernel started through ``POST /api/kernels`` and its ``/channels`` websocket."""

    def __init__(self, url: str, token: str, kernel_name: str = "sandbox") -> None:
        self.url, self.token = url, token
        self.session = uuid.uuid4().hex
        self.id = self.rest("POST", "/api/kernels", {"name": kernel_name})["id"]
        self.ws = websocket.create_connection(
            f"{url.replace('http', 'ws', 1)}/api/kernels/{self.id}/channels?session_id={self.session}",
            header=[f"Authorization: token {token}"], timeout=60)

    def rest(self, method: str, path: str, body: dict | None = None):
        request = urllib.request.Request(f"{self.url}{path}", method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Authorization": f"token {self.token}",
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as reply:
            data = reply.read()
        return json.loads(data) if data else None

    def close(self) -> None:
        self.ws.close()
        self.rest("DELETE", f"/api/kernels/{self.id}")

    def send(self, msg_type: str, content: dict, buffers: list[bytes] = (), channel: str = "shell") -> str:
        """Send a message (binary frame when it has buffers); returns its msg_id."""
        msg_id = uuid.uuid4().hex
        msg = {"header": {"msg_id": msg_id, "username": "test", "session": self.session, "msg_type": msg_type,
                          "version": "5.3", "date": ""},
               "parent_header": {}, "metadata": {}, "content": content, "channel": channel}
        if not buffers:
            self.ws.send(json.dumps(msg))
            return msg_id
        parts = [json.dumps(msg).encode(), *buffers]
        offsets = [4 * (len(parts) + 1)]
        for part in parts[:-1]:
            offsets.append(offsets[-1] + len(part))
        self.ws.send_binary(struct.pack(f"!{len(parts) + 1}I", len(parts), *offsets) + b"".join(parts))
        return msg_id

    def receive(self, timeout: float = 60) -> dict:
        """The next message (``buffers`` filled from a binary frame)."""
        self.ws.settimeout(timeout)
        frame = self.ws.recv()
        if isinstance(frame, str):
            return json.loads(frame) | {"buffers": []}
        count = struct.unpack("!I", frame[:4])[0]
        offsets = list(struct.unpack(f"!{count}I", frame[4:4 + 4 * count])) + [len(frame)]
        msg = json.loads(frame[offsets[0]:offsets[1]])
        return msg | {"buffers": [frame[a:b] for a, b in zip(offsets[1:-1], offsets[2:])]}

    def wait_for(self, match, timeout: float = 60) -> tuple[dict, list[dict]]:
        """Messages up to the first that ``match``es: (that one, all before it)."""
        seen = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            msg = self.receive(max(0.1, deadline - time.monotonic()))
            if match(msg):
                return msg, seen
            seen.append(msg)
        raise AssertionError(f"no matching message within {timeout} s; got {[m['msg_type'] for m in seen]}")

    def execute(self, code: str) -> str:
        return self.send("execute_request", {"code": code, "silent": False, "store_history": True,
                                             "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})

    def comm_reply(self, comm_id: str, key) -> dict:
        """The next comm_msg of ``comm_id`` whose data has id (or event) ``key``."""
        msg, _ = self.wait_for(lambda m: m["msg_type"] == "comm_msg" and m["content"]["comm_id"] == comm_id
                               and key in (m["content"]["data"].get("id"), m["content"]["data"].get("event")))
        return msg
