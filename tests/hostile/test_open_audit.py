"""An audit of every host `open` while hostile shell and JS code runs: only the Python
installation, the project's package and its cache may be opened — never the files the scripts
name."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import json, os, sys
opened = []
sys.addaudithook(lambda event, args: opened.append(str(args[0]))
                 if event == "open" and isinstance(args[0], (str, bytes)) else None)
from sandbox_kernel.cli import run_script
scripts = [
    "cat /etc/shadow /etc/passwd ../../../../etc/hostname; ls /proc /root /sys; echo x > /tmp/audit-probe",
    "ln -s /../../../../etc/passwd p; cat p; source /etc/profile; . ~/.bashrc; exec 3< /etc/hosts; cat <&3",
    "echo hi > /dev/tcp/127.0.0.1/9; x=$(< /host-secret); cd /usr/lib; ls; cat /proc/self/environ",
    "js -e \"const fs = require('fs'); try { fs.readFileSync('/etc/shadow') } catch (e) { console.log(e.code) }\"",
]
for s in scripts:
    run_script(s)
print(json.dumps(opened))
"""


def test_no_host_file_outside_python_and_cache_is_opened(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    opened = json.loads(proc.stdout.strip().splitlines()[-1])
    # (guest/ is the package's sandbox_kernel.guest: the JS engine reads its cache root there)
    allowed = [sys.prefix, sys.base_prefix, str(ROOT / "sandbox_kernel"), str(ROOT / "guest"), str(tmp_path / ".cache"),
               "/usr/lib/python3", "/usr/share/zoneinfo", "/dev/urandom"]
    assert any(p.endswith((".wasm", ".cwasm")) for p in opened)  # the hook saw the JS engine load
    # the memory safety net reads the process's own /proc/PID/statm (a fixed path, read only)
    own_stats = re.compile(r"/proc/[0-9]+/statm")
    outside = sorted({p for p in opened if not any(p.startswith(a) for a in allowed) and not own_stats.fullmatch(p)})
    assert not outside, outside
    for name in ("/etc/shadow", "/etc/passwd", "/etc/hostname", "/etc/hosts", "/host-secret",
                 "/tmp/audit-probe", "/proc/self/environ"):
        assert name not in opened
