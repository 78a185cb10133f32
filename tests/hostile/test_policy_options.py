"""The admin's policy options for secrets, the egress log and the host's VM cap: parsed and
checked at install and at kernel start; secret values only from the environment or a private
file, never from the command line, never printed."""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import pytest

from sandbox_kernel import policy

VALUE = "tok-3f9a1c7e5b2d4e6f"


def parse(*argv: str, environ=None) -> policy.Policy:
    parser = argparse.ArgumentParser()
    policy.add_arguments(parser)
    return policy.from_arguments(parser.parse_args(list(argv)), environ)


def test_secret_from_the_environment_is_taken_out_of_it():
    environ = {"GH_TOKEN": VALUE, "OTHER": "x"}
    p = parse("--network", "allow:api.github.com", "--secret", "GH_TOKEN@api.github.com", environ=environ)
    [secret] = p.secrets
    assert secret.value == VALUE and secret.rules()[0].ports == (443,)
    assert "GH_TOKEN" not in environ and environ == {"OTHER": "x"}  # QEMU and other children never see it
    assert VALUE not in repr(p) and VALUE not in str(secret)


def test_install_checks_secrets_without_values():
    p = parse("--network", "allow:api.github.com", "--secret", "GH_TOKEN@api.github.com")
    assert p.secrets[0].value is None
    args = argparse.ArgumentParser()
    policy.add_arguments(args)
    argv = policy.to_argv(args.parse_args(["--network", "allow:a.org", "--secret", "T@a.org", "--max-vms", "2",
                                           "--vm-boot-timeout", "30", "--egress-log", "/var/log/egress.jsonl"]))
    assert argv == ["--network", "allow:a.org", "--secret", "T@a.org", "--egress-log", "/var/log/egress.jsonl",
                    "--max-vms", "2", "--vm-boot-timeout", "30"]


@pytest.mark.parametrize("argv, message", [
    (["--secret", "T@api.github.com"], "needs a network"),
    (["--network", "allow:pypi.org", "--secret", "T@api.github.com"], "not within the admin's allow-list"),
    (["--network", "allow:a.org:80", "--secret", "T@a.org"], "not within"),  # 443 by default, not allowed
    (["--network", "allow:a.org", "--secret", "T"], "NAME@HOST"),
    (["--network", "allow:a.org", "--secret", "1X@a.org"], "invalid secret name"),
    (["--network", "allow:a.org", "--secret", "https_proxy@a.org"], "invalid secret name"),
    (["--network", "allow:a.org", "--secret", "T@a.org", "--secret", "T@a.org"], "defined twice"),
    (["--max-vms", "0"], "--max-vms must be"),
    (["--vm-boot-timeout", "nan"], "--vm-boot-timeout must be"),
    (["--vm-queue-timeout", "-1"], "--vm-queue-timeout must be"),
    (["--egress-log", "relative.log"], "absolute path"),
    (["--secrets-file", "secrets.json"], "absolute path"),
])
def test_bad_policy_options(argv, message):
    with pytest.raises(ValueError, match=message):
        parse(*argv)


@pytest.mark.parametrize("value", ["short", "two\nlines", "tab\there-long-enough", "é-accented-value"])
def test_bad_secret_values(value):
    with pytest.raises(ValueError, match="secret T: the value"):
        parse("--network", "allow:a.org", "--secret", "T@a.org", environ={"T": value})


def test_secrets_file_must_be_private(tmp_path):
    path = tmp_path / "secrets.json"
    path.write_text(json.dumps({"API_KEY": {"value": VALUE, "hosts": ["api.example.org", "127.0.0.1:8443"]}}))
    path.chmod(0o644)
    with pytest.raises(ValueError, match="chmod 600"):
        parse("--network", "allow:api.example.org,127.0.0.1:8443", "--secrets-file", str(path), environ={})
    path.chmod(0o600)
    [secret] = parse("--network", "allow:api.example.org,127.0.0.1:8443", "--secrets-file", str(path),
                     environ={}).secrets
    assert secret.name == "API_KEY" and secret.value == VALUE and [r.ports for r in secret.rules()] == [(443,), (8443,)]
    path.write_text(json.dumps({"API_KEY": {"value": VALUE}}))
    with pytest.raises(ValueError, match="needs \"value\""):
        parse("--network", "allow:a.org", "--secrets-file", str(path), environ={})


def test_kernel_start_reports_a_bad_secret_without_its_value():
    env = {k: v for k, v in os.environ.items()} | {"T": "bad\x01value-long"}
    result = subprocess.run([sys.executable, "-P", "-m", "sandbox_kernel", "kernel", "--network", "allow:a.org",
                             "--secret", "T@a.org", "-f", "/nonexistent.json"],
                            capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 2 and "secret T: the value must be printable" in result.stderr
    assert "bad\x01value" not in result.stderr and "Traceback" not in result.stderr


def test_install_writes_secret_names_never_values(tmp_path):
    env = dict(os.environ) | {"T": VALUE}
    result = subprocess.run([sys.executable, "-m", "sandbox_kernel", "install", "--prefix", str(tmp_path),
                             "--network", "allow:a.org", "--secret", "T@a.org", "--max-vms", "2"],
                            capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "share/jupyter/kernels/sandbox/kernel.json").read_text()
    assert VALUE not in text
    assert json.loads(text)["argv"][5:-2] == ["--network", "allow:a.org", "--secret", "T@a.org", "--max-vms", "2"]
