"""A program in a real terminal (tmux on a private socket): type keys, read the screen."""
from __future__ import annotations

import shlex
import shutil
import subprocess
import time
import uuid


def tmux_missing() -> str | None:
    return None if shutil.which("tmux") else "tmux is not installed (apt-get install tmux)"


class TmuxTerminal:
    def __init__(self, argv: list[str], env: dict[str, str], width: int = 120, height: int = 40) -> None:
        self.socket = f"sandbox-test-{uuid.uuid4().hex[:8]}"
        command = "env " + " ".join(shlex.quote(f"{k}={v}") for k, v in env.items()) + " " + shlex.join(argv)
        self.tmux("new-session", "-d", "-x", str(width), "-y", str(height), command)

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True,
                              timeout=30, check=True).stdout

    def send(self, *keys: str) -> None:
        """tmux key names (Enter, C-c, Up) or literal text."""
        self.tmux("send-keys", *keys)

    def type_line(self, text: str) -> None:
        self.tmux("send-keys", "-l", text)
        self.tmux("send-keys", "Enter")

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-S", "-200")

    def wait_for(self, condition, timeout: float = 60) -> str:
        """The screen, once ``condition(screen)`` holds (a string: once it is on the screen)."""
        check = (lambda s: condition in s) if isinstance(condition, str) else condition
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if check(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"not on the screen within {timeout} s:\n{screen}")
            time.sleep(0.1)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=30)
