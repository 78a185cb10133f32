"""The guest image as something an admin deploys: a missing host tool is named with its Debian
package; the cache is readable by every uid (baked as one user, used by pods of another);
``vm-image --export/--import`` carries it to hosts without Debian's apt, checking every file of
a (possibly hostile) export before installing anything. No QEMU needed: the images here are
made of placeholder bytes."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sandbox_kernel.vm import image as guest_image
from sandbox_kernel.guest import build
from sandbox_kernel.vm.image import (EXPORT_MANIFEST, IMAGE_FILES, ImageError, export_image, import_image,
                                     parse_export_manifest)

IMAGE_HASH = "0123456789abcdef"


def run_python(code: str, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=60)


def test_every_recipe_file_is_hashed(tmp_path):
    """Every file of guest/ the build reads is in RECIPE_FILES (only the README and the package's
    __init__.py are not), and a change to any of them gives another recipe hash, i.e. a rebuild.
    The script is run from a copy of the folder, as `python build.py` would (it reads the files
    beside it): by its path, with runpy, so nothing edits sys.path."""
    here = build.HERE
    files = {p.relative_to(here) for p in here.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert files - {f.relative_to(here) for f in build.RECIPE_FILES} == {Path("README.md"), Path("__init__.py")}
    copy = tmp_path / "guest"
    shutil.copytree(here, copy, ignore=shutil.ignore_patterns("__pycache__"))
    code = f"import runpy\nprint(runpy.run_path({str(copy / 'build.py')!r})['recipe_hash']())\n"

    def recipe_hash() -> str:
        result = run_python(code)
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()

    seen = {recipe_hash()}
    assert seen == {build.recipe_hash()}  # the copy hashes as the package's recipe
    for f in build.RECIPE_FILES:
        with open(copy / f.relative_to(here), "a") as out:
            out.write("\n# changed\n")
        changed = recipe_hash()
        assert changed not in seen, f.name
        seen.add(changed)
    (copy / "README.md").write_text("not part of the image\n")
    assert recipe_hash() in seen


def test_a_missing_lz4_is_named_with_its_debian_package(tmp_path):
    """The kernel payload is cut out with lz4: without it, a message naming the package and
    status 1, not a FileNotFoundError traceback."""
    bzimage = tmp_path / "vmlinuz"
    bzimage.write_bytes(b"\0" * 64 + b"\x02\x21\x4c\x18" + b"payload")
    (tmp_path / "empty").mkdir()
    code = ("import sys\nfrom pathlib import Path\nfrom sandbox_kernel.guest import build\n"
            "build.extract_vmlinux(Path(sys.argv[1]), Path(sys.argv[2]))\n")
    result = run_python(code, str(bzimage), str(tmp_path / "vmlinux"),
                        env=dict(os.environ, PATH=str(tmp_path / "empty")))
    assert result.returncode == 1, result.stderr
    assert "'lz4' not found" in result.stderr and "apt-get install lz4" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_the_build_names_every_missing_tool_before_it_starts(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(build, "find_tool", lambda name: None)
    with pytest.raises(SystemExit) as exit_info:
        build.check_tools(build.BUILD_TOOLS)
    assert exit_info.value.code == 1
    err = capsys.readouterr().err
    for tool in build.BUILD_TOOLS:
        assert repr(tool) in err
    assert "apt-get install apt dpkg gcc libc6-dev lz4 squashfs-tools" in err
    assert "vm-image --import" in err


def make_image(files: dict[str, bytes] | None = None) -> guest_image.GuestImage:
    """A placeholder image published in $SANDBOX_KERNEL_CACHE as the current recipe's."""
    work = Path(tempfile.mkdtemp(dir=build.guest_dir()))
    contents = files or {"vmlinux": b"\x7fELF" + os.urandom(300), "initrd.cpio": b"070701" + os.urandom(200),
                         "rootfs.squashfs": b"hsqs" + os.urandom(5000)}
    for name, data in contents.items():
        (work / name).write_bytes(data)
    (work / "manifest.json").write_text(json.dumps({"hash": IMAGE_HASH, "recipe": build.recipe_hash()}))
    build.publish(work, work.parent / IMAGE_HASH)
    image = guest_image.cached_image()
    assert image is not None and image.hash == IMAGE_HASH
    return image


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache of its own, made under a umask that would make everything private."""
    monkeypatch.setenv("SANDBOX_KERNEL_CACHE", str(tmp_path / "cache"))
    old = os.umask(0o077)
    try:
        yield tmp_path / "cache"
    finally:
        os.umask(old)


def test_the_cache_is_readable_by_every_uid():
    """A cache baked into an image by one user (a Dockerfile's RUN, umask 077 here) is used by
    kernels of another uid (a pod's runAsUser): every directory 0755, every file 0644."""
    base = Path(tempfile.mkdtemp(dir="/tmp"))
    try:
        os.chmod(base, 0o755)  # the admin's /opt
        cache = base / "opt" / "sandbox-kernel"
        old = os.umask(0o077)
        saved = os.environ.get("SANDBOX_KERNEL_CACHE")
        os.environ["SANDBOX_KERNEL_CACHE"] = str(cache)
        try:
            image = make_image()
            pointer = build.recipe_pointer()
        finally:
            os.umask(old)
            if saved is None:
                del os.environ["SANDBOX_KERNEL_CACHE"]
            else:
                os.environ["SANDBOX_KERNEL_CACHE"] = saved
        for path in (base / "opt", cache, cache / "guest", image.path):
            assert stat.S_IMODE(path.stat().st_mode) == 0o755, path
        for path in (pointer, *(image.path / name for name in IMAGE_FILES)):
            assert stat.S_IMODE(path.stat().st_mode) == 0o644, path
        if os.geteuid() == 0:  # as another uid, read it the way the kernel finds it
            reader = subprocess.run(["/bin/sh", "-c", 'd=$(cat "$1") && cat "$d"/vmlinux "$d"/initrd.cpio '
                                     '"$d"/rootfs.squashfs "$d"/manifest.json | wc -c', "sh", str(pointer)],
                                    capture_output=True, text=True, user=65534, group=65534, timeout=30)
            assert reader.returncode == 0, reader.stderr
            assert int(reader.stdout) == sum((image.path / n).stat().st_size for n in IMAGE_FILES)
    finally:
        shutil.rmtree(base)


def test_export_and_import_carry_the_image(cache, tmp_path, monkeypatch):
    image = make_image()
    digest = export_image(image, tmp_path / "export")
    assert digest == hashlib.sha256((tmp_path / "export" / EXPORT_MANIFEST).read_bytes()).hexdigest()
    monkeypatch.setenv("SANDBOX_KERNEL_CACHE", str(tmp_path / "other-host"))
    assert guest_image.cached_image() is None
    imported = import_image(tmp_path / "export", digest)
    assert imported.path.parent == tmp_path / "other-host" / "guest" and imported.hash == IMAGE_HASH
    for name in IMAGE_FILES:
        assert (imported.path / name).read_bytes() == (image.path / name).read_bytes()
        assert stat.S_IMODE((imported.path / name).stat().st_mode) == 0o644
    assert guest_image.cached_image().path == imported.path


def tamper(export: Path, how: str) -> str | None:
    """Damage an export one way; returns the --sha256 to pass (None: the manifest's own)."""
    manifest = json.loads((export / EXPORT_MANIFEST).read_text())
    if how == "flipped byte":
        data = bytearray((export / "rootfs.squashfs").read_bytes())
        data[100] ^= 1
        (export / "rootfs.squashfs").write_bytes(bytes(data))
    elif how == "longer file":
        with open(export / "vmlinux", "ab") as f:
            f.write(b"x")
    elif how == "symlink":
        (export / "initrd.cpio").unlink()
        (export / "initrd.cpio").symlink_to("/etc/passwd")
    elif how == "fifo":
        (export / "initrd.cpio").unlink()
        os.mkfifo(export / "initrd.cpio")
    elif how == "path in names":
        manifest["files"]["../../escape"] = manifest["files"].pop("vmlinux")
    elif how == "other recipe":
        manifest["recipe"] = "f" * 16
    elif how == "hash path":
        manifest["hash"] = "../../../../tmp/x"
    elif how == "other image's manifest":
        inner = json.dumps({"hash": "fedcba9876543210", "recipe": manifest["recipe"]}).encode()
        (export / "manifest.json").write_bytes(inner)
        manifest["files"]["manifest.json"] = {"bytes": len(inner), "sha256": hashlib.sha256(inner).hexdigest()}
    elif how == "pinned digest":
        return "0" * 64
    (export / EXPORT_MANIFEST).write_text(json.dumps(manifest))
    return None


@pytest.mark.parametrize("how", ["flipped byte", "longer file", "symlink", "fifo", "path in names", "other recipe",
                                 "hash path", "other image's manifest", "pinned digest"])
def test_import_refuses_a_damaged_or_hostile_export(cache, tmp_path, monkeypatch, how):
    export_image(make_image(), tmp_path / "export")
    expect = tamper(tmp_path / "export", how)
    monkeypatch.setenv("SANDBOX_KERNEL_CACHE", str(tmp_path / "other-host"))
    with pytest.raises(ImageError):
        import_image(tmp_path / "export", expect)
    guest = tmp_path / "other-host" / "guest"
    assert not guest.exists() or not list(guest.iterdir()), "something was installed"
    assert not (tmp_path / "escape").exists() and not Path("/tmp/x").exists()


def test_vm_image_import_reports_a_bad_export_without_a_traceback(tmp_path):
    (tmp_path / EXPORT_MANIFEST).write_text('{"format": "sandbox-kernel-guest/1"}')
    env = dict(os.environ, SANDBOX_KERNEL_CACHE=str(tmp_path / "cache"))
    result = subprocess.run([sys.executable, "-m", "sandbox_kernel", "vm-image", "--import", str(tmp_path)],
                            capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 1 and "vm-image:" in result.stderr and '"recipe"' in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def valid_manifest() -> dict:
    return {"format": "sandbox-kernel-guest/1", "recipe": "0" * 16, "hash": IMAGE_HASH,
            "files": {name: {"bytes": 10, "sha256": "a" * 64} for name in IMAGE_FILES}}


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                                       max_size=4), max_leaves=12)


@st.composite
def hostile_manifests(draw) -> bytes:
    """Mostly a valid manifest with one field replaced by something hostile; sometimes junk."""
    kind = draw(st.sampled_from(["field", "file", "name", "bytes", "nested"]))
    if kind == "bytes":
        return draw(st.binary(max_size=300))
    if kind == "nested":
        return b"[" * draw(st.integers(1, 70000)) + b"]"
    manifest = valid_manifest()
    if kind == "field":
        manifest[draw(st.sampled_from(["format", "recipe", "hash", "files"]))] = draw(json_values)
    elif kind == "file":
        entry = manifest["files"][draw(st.sampled_from(IMAGE_FILES))]
        entry[draw(st.sampled_from(["bytes", "sha256"]))] = draw(
            json_values | st.integers(-2, 1 << 40) | st.just(True))
    else:
        manifest["files"][draw(st.sampled_from(["../vmlinux", "/etc/passwd", "a/b", "", "vmlinux\0"]))] = {
            "bytes": 1, "sha256": "b" * 64}
    return json.dumps(manifest).encode()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_manifests())
def test_the_export_manifest_parser_holds_against_hostile_input(data):
    """Only ImageError escapes; what is accepted names exactly the image's files, sizes within
    bounds and hex digests, and 16-hex-digit hashes (no path can come out of it)."""
    try:
        manifest = parse_export_manifest(data)
    except ImageError:
        return
    assert set(manifest.files) == set(IMAGE_FILES)
    assert len(manifest.hash) == 16 and all(c in "0123456789abcdef" for c in manifest.hash + manifest.recipe)
    for name, (size, digest) in manifest.files.items():
        assert type(size) is int and 0 < size <= guest_image.MAX_FILE_BYTES[name]
        assert len(digest) == 64 and all(c in "0123456789abcdef" for c in digest)


def test_the_parser_accepts_what_export_writes():
    manifest = parse_export_manifest(json.dumps(valid_manifest()).encode())
    assert manifest.hash == IMAGE_HASH and manifest.files["vmlinux"] == (10, "a" * 64)
