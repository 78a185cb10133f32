"""`python -m sandbox_kernel install` and the shipped kernelspec."""
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox_kernel.kernel.install import SPEC_DIR, SPEC_FILES


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "sandbox_kernel", *args], capture_output=True, text=True)


def test_shipped_kernelspec():
    spec = json.loads((SPEC_DIR / "kernel.json").read_text())
    assert spec["argv"] == ["python", "-P", "-m", "sandbox_kernel", "kernel", "-f", "{connection_file}"]
    assert spec["display_name"] == "Sandbox (shell · JS · VM)"
    assert spec["language"] == "bash" and spec["interrupt_mode"] in ("message", "signal")
    for size in (32, 64):
        data = (SPEC_DIR / f"logo-{size}x{size}.png").read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        assert int.from_bytes(data[16:20], "big") == size and int.from_bytes(data[20:24], "big") == size


def test_logos_are_reproducible_from_the_generator():
    from scripts.make_logos import png
    assert png(32) == (SPEC_DIR / "logo-32x32.png").read_bytes()


def test_install_into_prefix(tmp_path):
    result = run_cli("install", "--prefix", str(tmp_path), "--name", "sbx-test", "--display-name", "My Sandbox")
    assert result.returncode == 0, result.stderr
    target = tmp_path / "share" / "jupyter" / "kernels" / "sbx-test"
    assert str(target) in result.stdout
    spec = json.loads((target / "kernel.json").read_text())
    assert spec["argv"][0] == sys.executable and spec["display_name"] == "My Sandbox"
    assert (target / "logo-64x64.png").exists() and not (target / "make_logos.py").exists()
    # installing again replaces it
    assert run_cli("install", "--prefix", str(tmp_path), "--name", "sbx-test",
                   "--interrupt-mode", "signal").returncode == 0
    assert json.loads((target / "kernel.json").read_text())["interrupt_mode"] == "signal"


@pytest.mark.parametrize("where", ["--prefix", "--sys-prefix", "--user"])
def test_installed_kernelspec_is_readable_by_every_user(tmp_path, where):
    """Installed as root under a strict umask (a Dockerfile's RUN), the kernelspec is still
    0755/0644: jovyan, or a pod with another uid, sees and starts it."""
    probe = ("import os, sys\n"
             "os.umask(0o077)\n"
             f"sys.prefix = {str(tmp_path / 'env')!r}\n"
             "from sandbox_kernel.kernel.install import install_main\n"
             "sys.exit(install_main(sys.argv[1:]))\n")
    argv = [where, str(tmp_path / "prefix")] if where == "--prefix" else [where]
    env = dict(os.environ, JUPYTER_DATA_DIR=str(tmp_path / "user-data"))
    result = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    target = Path(result.stdout.split(" in ", 1)[1].strip())
    assert target.parent.parent == {"--prefix": tmp_path / "prefix/share/jupyter", "--sys-prefix":
                                    tmp_path / "env/share/jupyter", "--user": tmp_path / "user-data"}[where]
    assert stat.S_IMODE(target.stat().st_mode) == 0o755
    assert sorted(p.name for p in target.iterdir()) == sorted(SPEC_FILES)
    for name in SPEC_FILES:
        assert stat.S_IMODE((target / name).stat().st_mode) == 0o644, name


def test_install_writes_the_admins_policy(tmp_path):
    result = run_cli("install", "--prefix", str(tmp_path), "--name", "sbx-policy",
                     "--network", "allow:pypi.org,10.0.0.5:8080", "--allow-active-output")
    assert result.returncode == 0, result.stderr
    spec = json.loads((tmp_path / "share/jupyter/kernels/sbx-policy/kernel.json").read_text())
    assert spec["argv"][1:] == ["-P", "-m", "sandbox_kernel", "kernel", "--network", "allow:pypi.org,10.0.0.5:8080",
                                "--allow-active-output", "-f", "{connection_file}"]
    result = run_cli("install", "--prefix", str(tmp_path), "--network", "allow:bad host")
    assert result.returncode == 2 and "invalid host pattern" in result.stderr


def test_kernel_refuses_a_bad_policy():
    result = run_cli("kernel", "--network", "everything", "-f", "/nonexistent.json")
    assert result.returncode == 2 and "network must be" in result.stderr and "Traceback" not in result.stderr


def test_install_usage_errors(tmp_path):
    result = run_cli("install", "--user", "--prefix", str(tmp_path))
    assert result.returncode == 2 and "not allowed with" in result.stderr
    result = run_cli("install", "--prefix", str(tmp_path), "--name", "bad/name")
    assert result.returncode == 2 and "invalid kernelspec name" in result.stderr
    assert "Traceback" not in result.stderr


def test_help_lists_subcommands():
    out = run_cli("--help").stdout
    for name in ("install", "kernel", "run-tour"):
        assert name in out



def test_the_sandbox_is_imported_after_the_sockets_are_bound():
    """Kernel start: the sandbox's modules load once ipykernel has bound the sockets (the client's
    first connection attempts are under way meanwhile); the kernel made is ours, with the policy."""
    probe = (
        "import sys\n"
        "import ipykernel.kernelapp as ka\n"
        "from sandbox_kernel.kernel.app import SandboxKernelApp\n"
        "from sandbox_kernel.policy import Policy\n"
        "app = SandboxKernelApp.instance()\n"
        "print('loaded at start:', 'sandbox_kernel.sandbox' in sys.modules)\n"
        "ka.IPKernelApp.init_kernel = lambda self: print('kernel:', self.kernel_class.__name__)\n"
        "app.policy = Policy(active_output=True)\n"
        "app.init_kernel()\n"
        "print('policy:', app.kernel_class.policy.active_output)\n"
    )
    out = subprocess.run([sys.executable, "-P", "-c", probe], capture_output=True, text=True, timeout=60)
    assert "loaded at start: False" in out.stdout, out.stderr
    assert "kernel: SandboxKernel" in out.stdout and "policy: True" in out.stdout, out.stderr


#: how Enterprise Gateway's launch_ipykernel.py starts a kernel in its pods: IPKernelApp with the
#: kernel class (--kernel-class-name) and argv of its own, the kernelspec's env in the environment
EG_LIKE_LAUNCH = ("import sys\n"
                  "from ipykernel.kernelapp import IPKernelApp\n"
                  "from sandbox_kernel.kernel.kernel import SandboxKernel\n"
                  "app = IPKernelApp.instance(kernel_class=SandboxKernel, connection_file=sys.argv[1],\n"
                  "                           ip='127.0.0.1')\n"
                  "app.initialize([])\n"
                  "app.start()\n")
ADMIN_POLICY = ["--limit", "wall_time=2", "--max-limit", "wall_time=5"]


def test_install_can_put_the_policy_in_the_env(tmp_path):
    result = run_cli("install", "--prefix", str(tmp_path), "--name", "sbx-env", "--policy-in-env", *ADMIN_POLICY)
    assert result.returncode == 0, result.stderr
    spec = json.loads((tmp_path / "share/jupyter/kernels/sbx-env/kernel.json").read_text())
    assert spec["argv"][1:] == ["-P", "-m", "sandbox_kernel", "kernel", "-f", "{connection_file}"]
    assert json.loads(spec["env"]["SANDBOX_KERNEL_POLICY"]) == ADMIN_POLICY
    assert spec["env"]["KERNEL_LANGUAGE"] == "python"  # EG's kernel-pod bootstrap needs it


@pytest.mark.parametrize("launcher", ["ours", "enterprise-gateway"])
def test_a_kernel_gets_the_admins_policy_from_the_env(jupyter_kernels, launcher):
    """The policy in kernel.json's env reaches the kernel whether our launcher starts it or EG's
    (which never sees our argv): the admin's wall_time and its ceiling hold."""
    from tests.support.kernelclient import execute, run_ok, start_kernel
    from sandbox_kernel.kernel.install import install

    name = f"sandbox-env-{launcher}"
    path = Path(install(name, prefix=str(Path(jupyter_kernels).parents[1]), policy_argv=ADMIN_POLICY,
                        policy_in_env=True))
    if launcher == "enterprise-gateway":
        spec = json.loads((path / "kernel.json").read_text())
        spec["argv"] = [sys.executable, "-c", EG_LIKE_LAUNCH, "{connection_file}"]
        (path / "kernel.json").write_text(json.dumps(spec))
    with start_kernel(name) as (_, kc):
        reply, _ = execute(kc, "sleep 3")
        assert reply["ename"] == "Timeout" and "(2 s;" in reply["evalue"]
        reply, _ = execute(kc, "%limits wall_time=10")
        assert reply["status"] == "error" and "ceiling of 5 s" in reply["evalue"]
        assert run_ok(kc, "%limits wall_time=4\necho ok") == "wall_time = 4 s\nok\n"


def test_a_bad_policy_in_the_env_stops_the_kernel_with_a_message(tmp_path):
    env = dict(os.environ, SANDBOX_KERNEL_POLICY=json.dumps(["--network", "everything"]))
    result = subprocess.run([sys.executable, "-c", EG_LIKE_LAUNCH, str(tmp_path / "kernel.json")],
                            capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode != 0 and "SANDBOX_KERNEL_POLICY" in result.stderr and "network must be" in result.stderr
    assert "Traceback" not in result.stderr
    env["SANDBOX_KERNEL_POLICY"] = '{"not": "a list"}'
    result = subprocess.run([sys.executable, "-m", "sandbox_kernel", "kernel", "-f", str(tmp_path / "k.json")],
                            capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 2 and "must be a JSON list" in result.stderr and "Traceback" not in result.stderr
