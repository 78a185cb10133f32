"""`python -m sandbox_kernel install` and the shipped kernelspec."""
import json
import subprocess
import sys

from sandbox_kernel.kernel.install import SPEC_DIR


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
    from make_logos import png
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
