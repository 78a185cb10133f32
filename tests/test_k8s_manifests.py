"""deploy/k8s, checked offline: the Enterprise Gateway kernel-pod template rendered as EG's
launch_kubernetes.py renders it and validated against the Kubernetes 1.30 schema (strict:
unknown fields are errors); the z2jh values' pod parts assembled into a Pod and validated the
same way, their culling settings real traits; the EG kernelspec's policy parses."""
from __future__ import annotations

import json
from pathlib import Path

import jinja2
import kubernetes_validate
import pytest
import yaml

from sandbox_kernel import policy

K8S = Path(__file__).resolve().parents[1] / "deploy" / "k8s"
KUBERNETES = "1.30.0"
KVM = "devices.kubevirt.io/kvm"


def validate(obj: dict) -> None:
    kubernetes_validate.validate(obj, KUBERNETES, strict=True)


def render_kernel_pod(**keywords) -> dict:
    """As EG's launch_kubernetes.py does: the KERNEL_* values, trim_blocks and lstrip_blocks."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(K8S), trim_blocks=True, lstrip_blocks=True)
    values = {"kernel_pod_name": "alice-0c1d", "kernel_namespace": "eg-kernels", "kernel_id": "0c1d",
              "kernel_image": "registry.example.org/sandbox-kernel-eg:0.1.0",
              "kernel_service_account_name": "default", **keywords}
    [pod] = list(yaml.safe_load_all(env.get_template("eg-kernel-pod.yaml.j2").render(**values)))
    return pod


@pytest.mark.parametrize("keywords", [
    {},
    {"kernel_runtime_class": "gvisor", "kernel_uid": 2000, "kernel_gid": 100, "kernel_memory_limit": "3Gi",
     "kernel_working_dir": "/home/jovyan/work",
     "kernel_volume_mounts": ["{name: work, mountPath: /home/jovyan/work}"],
     "kernel_volumes": ["{name: work, persistentVolumeClaim: {claimName: alice-work}}"]},
])
def test_the_eg_kernel_pod_template_is_a_valid_restricted_pod(keywords):
    pod = render_kernel_pod(**keywords)
    validate(pod)
    spec = pod["spec"]
    [container] = spec["containers"]
    assert spec["securityContext"]["runAsNonRoot"] is True
    assert spec["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    assert container["securityContext"]["capabilities"] == {"drop": ["ALL"]}
    assert container["securityContext"]["allowPrivilegeEscalation"] is False
    assert container["resources"]["limits"][KVM] == container["resources"]["requests"][KVM] == "1"
    assert {"name": "KERNEL_LANGUAGE", "value": "python"} in container["env"]
    assert spec.get("runtimeClassName") == keywords.get("kernel_runtime_class")
    assert spec["securityContext"]["runAsUser"] == keywords.get("kernel_uid", 1000)


def test_the_eg_kernelspec_carries_a_valid_policy():
    spec = json.loads((K8S / "eg-kernelspec" / "kernel.json").read_text())
    assert spec["env"]["KERNEL_LANGUAGE"] == "python"
    argv = json.loads(spec["env"][policy.POLICY_ENV])
    assert policy.from_argv(argv).limits.wall_time == 120
    at = spec["argv"].index("--kernel-class-name")
    from sandbox_kernel.kernel.kernel import SandboxKernel
    module, _, name = spec["argv"][at + 1].rpartition(".")
    assert getattr(__import__(module, fromlist=[name]), name) is SandboxKernel


def test_the_z2jh_values_make_a_valid_restricted_pod():
    values = yaml.safe_load((K8S / "z2jh-config.yaml").read_text())
    user = values["singleuser"]
    # KubeSpawner's pod from these values (the parts this file sets), validated like the template
    limits = {"memory": user["memory"]["limit"], "cpu": str(user["cpu"]["limit"]), **user["extraResource"]["limits"]}
    requests = {"memory": user["memory"]["guarantee"], "cpu": str(user["cpu"]["guarantee"]),
                **user["extraResource"]["guarantees"]}
    container = {"name": "notebook", "image": f"{user['image']['name']}:{user['image']['tag']}",
                 "env": [{"name": k, "value": v} for k, v in user["extraEnv"].items()],
                 "resources": {"limits": limits, "requests": requests},
                 "volumeMounts": [{"name": "home", "mountPath": user["storage"]["homeMountPath"]}],
                 "securityContext": {"runAsUser": user["uid"], "allowPrivilegeEscalation":
                                     user["allowPrivilegeEscalation"],
                                     **user["extraContainerConfig"]["securityContext"]}}
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "jupyter-alice"},
           "spec": {"containers": [container], "volumes": [{"name": "home", "persistentVolumeClaim":
                                                             {"claimName": "claim-alice"}}],
                    **user["extraPodConfig"], "securityContext": {"fsGroup": user["fsGid"],
                                                                   **user["extraPodConfig"]["securityContext"]}}}
    validate(pod)
    assert limits[KVM] == "1" and container["securityContext"]["capabilities"] == {"drop": ["ALL"]}
    assert pod["spec"]["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    # the guest cache is outside the PVC (a mount over it would hide the baked guest)
    cache = user["extraEnv"]["SANDBOX_KERNEL_CACHE"]
    assert not (cache + "/").startswith(user["storage"]["homeMountPath"].rstrip("/") + "/")
    # kernel culling: real MappingKernelManager traits; idle servers culled by the hub
    from jupyter_server.services.kernels.kernelmanager import MappingKernelManager
    culling_file = user["extraFiles"]["kernel-culling"]
    assert culling_file["mountPath"] == "/etc/jupyter/jupyter_server_config.json"  # not a .d file: those are ignored
    culling = culling_file["data"]["MappingKernelManager"]
    assert culling["cull_idle_timeout"] > 0 and all(MappingKernelManager.class_traits().get(k) for k in culling)
    assert values["cull"]["enabled"] is True and values["cull"]["timeout"] > culling["cull_idle_timeout"]


def test_the_z2jh_culling_file_is_what_the_server_loads(tmp_path):
    """The extraFiles entry, written where z2jh mounts it, sets the server's kernel culling
    (a jupyter_server_config.d/ file would be ignored: those carry only enabled extensions)."""
    import os
    import subprocess
    import sys

    entry = yaml.safe_load((K8S / "z2jh-config.yaml").read_text())["singleuser"]["extraFiles"]["kernel-culling"]
    config_dir = tmp_path / "etc-jupyter"
    config_dir.mkdir()
    (config_dir / Path(entry["mountPath"]).name).write_text(json.dumps(entry["data"]))
    probe = ("from jupyter_server.serverapp import ServerApp\n"
             "app = ServerApp.instance(open_browser=False, port=0)\n"
             "app.initialize(argv=[])\n"
             "km = app.kernel_manager\n"
             "print('culling:', km.cull_idle_timeout, km.cull_interval, km.cull_connected)\n")
    env = dict(os.environ, JUPYTER_CONFIG_PATH=str(config_dir), JUPYTER_CONFIG_DIR=str(tmp_path / "user-config"),
               JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"))
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120,
                            cwd=tmp_path)
    culling = entry["data"]["MappingKernelManager"]
    expected = f"culling: {culling['cull_idle_timeout']} {culling['cull_interval']} {culling['cull_connected']}"
    assert expected in result.stdout, result.stdout + result.stderr[-2000:]
