#!/usr/bin/env python3
"""Build the %%vm guest image from Debian packages only (see guest/README.md).

    python -m sandbox_kernel.guest.build            build (or find) the image; prints its directory
    python -m sandbox_kernel.guest.build --check    exit 0 if the image for the current recipe is cached
    python -m sandbox_kernel.guest.build --force    rebuild even when cached

(``python build.py`` in this directory does the same: the script needs only the standard
library and the files beside it, wherever the package is installed.) It is also the one
definition of the recipe hash and of the cache directory, which ``vm/image.py`` imports.

Steps: resolve the package closure of guest/packages.txt with the host's apt index, fetch the
.debs with `apt-get download` (cached), unpack them with `dpkg -x` (no maintainer scripts),
cut the uncompressed vmlinux out of the Debian kernel, compile the static C agent, write the
root filesystem as a read-only squashfs image and a small initramfs (busybox, the modules,
stage-1 init) that lays a tmpfs over it; both reproducible (sorted, uid 0, fixed mtimes).
Output goes to $SANDBOX_KERNEL_CACHE/guest/<hash>/ (default ~/.cache/sandbox-kernel):
vmlinux, initrd.cpio, rootfs.squashfs, manifest.json. The hash covers packages.txt, the
resolved versions, the agent, the init scripts and this file, so any change rebuilds.
Needs on the host: apt-get, dpkg, gcc + libc6-dev (static agent), lz4 (kernel payload),
mksquashfs (squashfs-tools) -- TOOL_PACKAGES; a missing one is named with its package. The
image is readable by every uid (SHARED_*_MODE), so one baked into a container image serves
kernels of any user; ``vm-image --export/--import`` carries it to hosts without Debian's apt.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BUILD_SCRIPT = Path(__file__).resolve()
PACKAGES_FILE = HERE / "packages.txt"
AGENT_SOURCE = HERE / "agent" / "agent.c"
SUDO_SOURCE = HERE / "agent" / "sudo.c"
INIT_SCRIPT = HERE / "init"
INITRAMFS_INIT = HERE / "initramfs-init"
#: every file the build reads (package data, so a wheel has them); all of them are hashed
RECIPE_FILES = (PACKAGES_FILE, AGENT_SOURCE, SUDO_SOURCE, INIT_SCRIPT, INITRAMFS_INIT, BUILD_SCRIPT)
#: where the (not setuid) sudo waits until `%vm config sudo=on` installs a setuid copy
SUDO_IN_IMAGE = "usr/lib/sandbox-kernel/sudo"
#: the unprivileged user %%vm cells run as (owns /workspace; vm/protocol.py: GUEST_USER)
USER_NAME, USER_UID = "user", 1000
#: virtio-serial (the agent's port), virtio-blk (the root image), squashfs and overlay: the
#: cloud kernel builds them as modules; a module's dependencies come before it
MODULES = ["virtio_ring", "virtio", "virtio_mmio", "virtio_console", "virtio_blk", "squashfs", "overlay"]
#: mtime of every file in the image, so identical inputs give an identical initramfs
FIXED_MTIME = 1_700_000_000
PRUNE = [
    "usr/share/doc", "usr/share/man", "usr/share/info", "usr/share/locale", "usr/share/lintian",
    "usr/share/bug", "usr/share/bash-completion", "usr/share/gcc", "usr/share/gdb",
    "usr/lib/python3.11/test", "usr/lib/python3.11/idlelib", "usr/lib/python3.11/tkinter",
    "usr/lib/python3.11/turtledemo", "usr/lib/python3.11/lib2to3",
    "usr/lib/python3.11/pydoc_data", "usr/lib/x86_64-linux-gnu/gconv", "etc/cron.daily",
    "usr/share/pixmaps", "usr/share/applications", "usr/share/menu",
]


def cache_root() -> Path:
    base = os.environ.get("SANDBOX_KERNEL_CACHE")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "sandbox-kernel"


def say(msg: str) -> None:
    print(f"guest/build: {msg}", file=sys.stderr, flush=True)


def die(msg: str) -> None:
    say(f"error: {msg}")
    sys.exit(1)


#: host tool -> the Debian package that provides it (what the admin installs)
TOOL_PACKAGES = {"apt-get": "apt", "apt-cache": "apt", "dpkg-deb": "dpkg", "gcc": "gcc libc6-dev",
                 "lz4": "lz4", "mksquashfs": "squashfs-tools", "ldconfig": "libc-bin"}
#: the tools a build runs (the cached image needs only apt-cache, to resolve the versions)
BUILD_TOOLS = ("apt-get", "dpkg-deb", "gcc", "lz4", "mksquashfs")
#: the image is shared by every uid that starts kernels (a JupyterHub image baked as one user,
#: pods running as another): directories 0755, files 0644, whatever the builder's umask
SHARED_DIR_MODE, SHARED_FILE_MODE = 0o755, 0o644


def find_tool(name: str) -> str | None:
    """``name`` on PATH, or in the sbin directories a non-root PATH lacks (mksquashfs, ldconfig)."""
    found = shutil.which(name)
    if found:
        return found
    for directory in ("/usr/sbin", "/sbin"):
        if os.access(os.path.join(directory, name), os.X_OK):
            return os.path.join(directory, name)
    return None


def missing_tool_message(names: list[str]) -> str:
    packages = " ".join(dict.fromkeys(TOOL_PACKAGES.get(n, n) for n in names))
    return (f"{', '.join(repr(n) for n in names)} not found: the guest build needs "
            f"{'it' if len(names) == 1 else 'them'} on the host (Debian/Ubuntu: apt-get install {packages}; "
            "or import a built guest: python -m sandbox_kernel vm-image --import DIR)")


def check_tools(names: tuple[str, ...]) -> None:
    missing = [n for n in names if not find_tool(n)]
    if missing:
        die(missing_tool_message(missing))


def run(argv: list[str], check: bool = True, **kw) -> subprocess.CompletedProcess:
    """Every program the build runs goes through here: a missing one is named with its package."""
    tool = argv[0] if "/" in argv[0] else find_tool(argv[0])
    try:
        if tool is None:
            raise FileNotFoundError(argv[0])
        return subprocess.run([tool, *argv[1:]], check=check, **kw)
    except FileNotFoundError:
        die(missing_tool_message([os.path.basename(argv[0])]))
    except subprocess.CalledProcessError as e:
        err = e.stderr.decode(errors="replace").strip() if isinstance(e.stderr, bytes) else ""
        die(f"{' '.join(argv[:3])}... failed with status {e.returncode}{': ' + err[-800:] if err else ''}")
    raise AssertionError


# ----------------------------------------------------------------------------- recipe
def read_recipe() -> tuple[str, list[str], set[str]]:
    kernel, roots, exclude = "", [], set()
    for raw in PACKAGES_FILE.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("kernel:"):
            kernel = line.split(":", 1)[1].strip()
        elif line.startswith("exclude:"):
            exclude.update(line.split(":", 1)[1].split())
        else:
            roots.extend(line.split())
    if not kernel:
        die(f"{PACKAGES_FILE}: no 'kernel:' line")
    return kernel, roots, exclude


def recipe_hash() -> str:
    """Hash of the recipe files (not of the resolved package versions): the name of the
    pointer file by which the kernel finds the image without running the build."""
    h = hashlib.sha256()
    for f in RECIPE_FILES:
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def recipe_pointer() -> Path:
    """The file naming the image directory built from the current recipe."""
    return cache_root() / "guest" / f"recipe-{recipe_hash()}"


def apt_show(names: list[str]) -> dict[str, dict[str, str]]:
    """Candidate version stanzas of real packages (virtual ones are absent from the result)."""
    out: dict[str, dict[str, str]] = {}
    if not names:
        return out
    proc = run(["apt-cache", "show", "--no-all-versions", *names], check=False, capture_output=True, text=True)
    for stanza in proc.stdout.split("\n\n"):
        fields: dict[str, str] = {}
        key = None
        for line in stanza.splitlines():
            if line.startswith((" ", "\t")) and key:
                fields[key] += " " + line.strip()
            elif ":" in line:
                key, _, value = line.partition(":")
                fields[key] = value.strip()
        if "Package" in fields and fields["Package"] not in out:
            out[fields["Package"]] = fields
    return out


def dependency_names(stanza: dict[str, str]) -> list[str]:
    names = []
    for field in ("Pre-Depends", "Depends"):
        for group in filter(None, (g.strip() for g in stanza.get(field, "").split(","))):
            first = group.split("|")[0].strip()
            names.append(re.split(r"[\s(:]", first, maxsplit=1)[0])
    return names


def resolve(kernel_meta: str, roots: list[str], exclude: set[str]) -> dict[str, str]:
    """package -> version: the kernel image the meta package points at, plus the closure."""
    meta = apt_show([kernel_meta]).get(kernel_meta)
    if not meta and os.geteuid() == 0:  # fresh machines often ship without package lists
        say("apt has no package lists: running apt-get update")
        run(["apt-get", "update", "-qq"], capture_output=True)
        meta = apt_show([kernel_meta]).get(kernel_meta)
    if not meta:
        die(f"apt knows no package '{kernel_meta}' (run apt-get update as root)")
    image = next((n for n in dependency_names(meta) if n.startswith("linux-image-")), None)
    if not image:
        die(f"{kernel_meta} depends on no linux-image package")
    chosen: dict[str, str] = {}
    kernel = apt_show([image]).get(image)
    if not kernel:
        die(f"apt knows no package '{image}'")
    chosen[image] = kernel["Version"]
    todo, seen = list(roots), set(exclude)
    while todo:
        batch = [n for n in dict.fromkeys(todo) if n not in seen]
        todo = []
        seen.update(batch)
        stanzas = apt_show(batch)
        for name in batch:
            if name in roots and name not in stanzas:
                die(f"apt knows no package '{name}' (listed in {PACKAGES_FILE.name})")
        for name, st in stanzas.items():
            chosen[name] = st["Version"]
            todo.extend(d for d in dependency_names(st) if d not in seen)
    return dict(sorted(chosen.items()))


# ----------------------------------------------------------------------------- steps
def download(packages: dict[str, str], debs: Path) -> dict[str, Path]:
    debs.mkdir(parents=True, exist_ok=True)
    files: dict[str, Path] = {}
    missing = []
    for name, version in packages.items():
        found = [p for p in debs.glob(f"{name}_*.deb")
                 if p.name.split("_")[1].replace("%3a", ":") == version]
        if found:
            files[name] = found[0]
        else:
            missing.append(f"{name}={version}")
    if missing:
        say(f"downloading {len(missing)} packages with apt-get download")
        run(["apt-get", "download", "-q", *missing], cwd=debs, capture_output=True)
        for spec in missing:
            name, version = spec.split("=", 1)
            found = [p for p in debs.glob(f"{name}_*.deb")
                     if p.name.split("_")[1].replace("%3a", ":") == version]
            if not found:
                die(f"apt-get download did not produce {spec}")
            files[name] = found[0]
    return files


def extract_vmlinux(bzimage: Path, out: Path) -> None:
    """QEMU's microvm boots an uncompressed ELF through its PVH entry point: cut the
    compressed payload out of the bzImage and decompress it."""
    data = bzimage.read_bytes()
    lz4 = data.find(b"\x02\x21\x4c\x18")
    xz = data.find(b"\xfd7zXZ\x00")
    if lz4 >= 0:
        with open(out, "wb") as f:
            # the payload is followed by the bzImage's trailer: lz4's status says nothing, the ELF check does
            run(["lz4", "-dc", "-q"], check=False, input=data[lz4:], stdout=f, stderr=subprocess.DEVNULL)
    elif xz >= 0:
        import lzma
        out.write_bytes(lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data[xz:]))
    else:
        die(f"{bzimage.name}: no LZ4 or XZ payload found")
    if out.read_bytes()[:4] != b"\x7fELF":
        die("vmlinux extraction failed (is lz4 installed?)")


def compile_static(source: Path, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    run(["gcc", "-static", "-Os", "-s", "-Wall", "-o", str(out), str(source)], capture_output=True)


def module_dependencies(ko: Path) -> list[str]:
    """The ``depends=`` entry of a module's .modinfo section."""
    for item in ko.read_bytes().split(b"\0"):
        if item.startswith(b"depends="):
            return [d for d in item[len(b"depends="):].decode().split(",") if d]
    return []


def install_initramfs(initramfs: Path, root: Path, kver: str, kroot: Path) -> None:
    """Stage 1: busybox, the modules in load order, and the init that mounts the root image."""
    for d in ("bin", "dev", "lib/modules", "lower", "rw", "root"):
        (initramfs / d).mkdir(parents=True, exist_ok=True)
    shutil.copyfile(root / "bin/busybox", initramfs / "bin/busybox")
    os.chmod(initramfs / "bin/busybox", 0o755)
    mods = kroot / "lib" / "modules" / kver
    for i, name in enumerate(MODULES):
        found = list(mods.rglob(f"{name}.ko")) or list(mods.rglob(f"{name}.ko.xz"))
        if not found:
            die(f"kernel {kver} has no module {name}")
        target = initramfs / "lib/modules" / f"{name}.ko"
        if found[0].suffix == ".xz":
            import lzma
            target.write_bytes(lzma.decompress(found[0].read_bytes()))
        else:
            shutil.copyfile(found[0], target)
        missing = [d for d in module_dependencies(target) if d not in MODULES[:i]]
        if missing:
            die(f"module {name} needs {', '.join(missing)} loaded before it (MODULES in guest/build.py)")
    (initramfs / "lib/modules/load.list").write_text(" ".join(MODULES) + "\n")
    shutil.copyfile(INITRAMFS_INIT, initramfs / "init")
    os.chmod(initramfs / "init", 0o755)


def install_skeleton(root: Path) -> None:
    for d in ("dev", "proc", "sys", "tmp", "run", "root", "workspace", "etc/ssl/certs",
              "sbin", "bin", "usr/bin", "usr/sbin", "var/tmp", f"home/{USER_NAME}"):
        (root / d).mkdir(parents=True, exist_ok=True)
    os.chmod(root / "tmp", 0o1777)
    os.chmod(root / "var/tmp", 0o1777)
    etc = root / "etc"
    # the image is all root-owned (mksquashfs -all-root): init gives /workspace and the
    # home directory to the user at boot
    (etc / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n"
                                f"{USER_NAME}:x:{USER_UID}:{USER_UID}:{USER_NAME}:/home/{USER_NAME}:/bin/bash\n"
                                "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n")
    (etc / "group").write_text(f"root:x:0:\n{USER_NAME}:x:{USER_UID}:\nnogroup:x:65534:\n")
    (etc / "hostname").write_text("vm\n")
    (etc / "hosts").write_text("127.0.0.1 localhost vm\n::1 localhost\n")
    (etc / "resolv.conf").write_text("")
    (etc / "os-release").write_text(
        'PRETTY_NAME="sandbox-kernel guest (Debian 12 packages)"\nID=debian\nVERSION_ID="12"\n'
    )
    # ca-certificates' postinst would build the bundle; we do what it does
    certs = sorted((root / "usr/share/ca-certificates").rglob("*.crt"))
    (etc / "ssl/certs/ca-certificates.crt").write_bytes(b"".join(c.read_bytes().rstrip(b"\n") + b"\n" for c in certs))
    # bash is the shell; busybox fills in tools Debian packages did not provide (ip, ps...)
    sh = root / "bin/sh"
    if sh.exists() or sh.is_symlink():
        sh.unlink()
    sh.symlink_to("bash")
    applets = run([str(root / "bin/busybox"), "--list-full"], check=False, capture_output=True,
                  text=True).stdout.split()
    for applet in applets:
        name = applet.rsplit("/", 1)[-1]
        if any((root / d / name).exists() or (root / d / name).is_symlink()
               for d in ("bin", "sbin", "usr/bin", "usr/sbin")):
            continue
        target = root / applet
        target.parent.mkdir(parents=True, exist_ok=True)
        target.symlink_to("/bin/busybox")
    shutil.copyfile(INIT_SCRIPT, root / "init")
    os.chmod(root / "init", 0o755)


def precompile_python(root: Path) -> str:
    """Debian ships no .pyc; compiling in the guest would cost every boot. The host's
    interpreter can do it only when it is the same minor version."""
    libs = sorted(root.glob("usr/lib/python3.*"))
    libs = [p for p in libs if re.fullmatch(r"python3\.\d+", p.name)]
    if not libs:
        return "no python in the image"
    version = libs[-1].name.removeprefix("python")
    host = shutil.which(f"python{version}")
    if not host:
        return f"not precompiled (no python{version} on the host)"
    run([host, "-m", "compileall", "-q", "-j0", "--invalidation-mode", "unchecked-hash",
         "-s", str(root), "-p", "/", str(libs[-1])], check=False, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    return f"precompiled with {host}"


def write_cpio(root: Path, out: Path) -> int:
    """newc archive of ``root``: sorted, owned by root, fixed mtimes, hard links copied."""
    entries: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        base = Path(dirpath)
        for name in dirnames:
            entries.append(base / name)
        for name in sorted(filenames):
            entries.append(base / name)
    entries.sort(key=lambda p: str(p.relative_to(root)))
    ino = 1
    with open(out, "wb") as f:
        def header(name: bytes, mode: int, size: int, nlink: int) -> None:
            nonlocal ino
            fields = [ino, mode, 0, 0, nlink, FIXED_MTIME, size, 0, 0, 0, 0, len(name) + 1, 0]
            f.write(b"070701" + b"".join(b"%08X" % v for v in fields) + name + b"\0")
            f.write(b"\0" * (-(110 + len(name) + 1) % 4))
            ino += 1

        for path in entries:
            rel = str(path.relative_to(root)).encode()
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                target = os.readlink(path).encode()
                header(rel, stat.S_IFLNK | 0o777, len(target), 1)
                f.write(target + b"\0" * (-len(target) % 4))
            elif stat.S_ISDIR(st.st_mode):
                header(rel, stat.S_IFDIR | (st.st_mode & 0o7777), 0, 2)
            elif stat.S_ISREG(st.st_mode):
                data = path.read_bytes()
                header(rel, stat.S_IFREG | (st.st_mode & 0o7777), len(data), 1)
                f.write(data + b"\0" * (-len(data) % 4))
        header(b"TRAILER!!!", 0, 0, 1)
        f.write(b"\0" * (-f.tell() % 512))
    return out.stat().st_size


def write_squashfs(root: Path, out: Path) -> int:
    """The read-only root: uncompressed (decompressing costs more than reading under TCG),
    owned by root, fixed times, reproducible."""
    run(["mksquashfs", str(root), str(out), "-noappend", "-reproducible", "-all-root", "-no-xattrs",
         "-noI", "-noD", "-noF", "-noX", "-mkfs-time", str(FIXED_MTIME), "-all-time", str(FIXED_MTIME),
         "-quiet", "-no-progress"], capture_output=True)
    return out.stat().st_size


def make_shared_dir(path: Path) -> Path:
    """``path`` and its missing parents, created 0755 (not by the umask)."""
    missing = []
    for p in (path, *path.parents):
        if p.exists():
            break
        missing.append(p)
    path.mkdir(parents=True, exist_ok=True)
    for p in missing:
        os.chmod(p, SHARED_DIR_MODE)
    return path


def guest_dir() -> Path:
    """$SANDBOX_KERNEL_CACHE/guest, created readable by every uid."""
    return make_shared_dir(cache_root() / "guest")


def publish(work: Path, dest: Path) -> None:
    """Make the image in ``work`` (a directory in ``guest_dir()``) the one at ``dest`` and the
    current recipe's: readable by every uid, then renamed into place, then pointed to."""
    for dirpath, _, filenames in os.walk(work):
        os.chmod(dirpath, SHARED_DIR_MODE)
        for name in filenames:
            os.chmod(os.path.join(dirpath, name), SHARED_FILE_MODE)
    if dest.exists():
        shutil.rmtree(dest)
    os.replace(work, dest)
    point_to(dest)


def point_to(dest: Path) -> None:
    """Name ``dest`` in the current recipe's pointer file (readable by every uid)."""
    pointer = recipe_pointer()
    partial = pointer.with_name(pointer.name + ".tmp")
    partial.write_text(str(dest) + "\n")
    os.chmod(partial, SHARED_FILE_MODE)
    os.replace(partial, pointer)


def tree_size(root: Path) -> int:
    return sum(os.lstat(os.path.join(d, n)).st_size for d, _, ns in os.walk(root) for n in ns)


def prune_old_images(guest_cache: Path, keep: int) -> None:
    """Images (each ~130 MB, plus ~130 MB per saved VM state) pile up as the recipe changes:
    keep the most recently built ones."""
    images = [d for d in guest_cache.iterdir() if d.is_dir() and (d / "manifest.json").exists()]
    images.sort(key=lambda d: (d / "manifest.json").stat().st_mtime, reverse=True)
    for old in images[keep:]:
        shutil.rmtree(old, ignore_errors=True)
    for pointer in guest_cache.glob("recipe-*"):
        try:
            if not Path(pointer.read_text().strip()).exists():
                pointer.unlink()
        except OSError:
            pass


# ----------------------------------------------------------------------------- main
def main(argv: list[str]) -> int:
    force = "--force" in argv
    check = "--check" in argv
    unknown = [a for a in argv if a not in ("--force", "--check")]
    if unknown:
        print(__doc__, file=sys.stderr)
        return 2
    started = time.monotonic()
    kernel_meta, roots, exclude = read_recipe()
    cache = cache_root()
    check_tools(("apt-cache",))
    packages = resolve(kernel_meta, roots, exclude)
    h = hashlib.sha256(recipe_hash().encode())
    h.update(json.dumps(packages, sort_keys=True).encode())
    image_hash = h.hexdigest()[:16]
    dest = cache / "guest" / image_hash
    if (dest / "manifest.json").exists() and not force:
        guest_dir()
        point_to(dest)
        if not check:
            say(f"cached image {dest}")
            print(dest)
        return 0
    if check:
        return 1
    check_tools(BUILD_TOOLS)
    say(f"building guest image {image_hash} from {len(packages)} Debian packages")
    files = download(packages, cache / "debs")
    t_download = time.monotonic() - started
    work = Path(tempfile.mkdtemp(prefix="guest-build-", dir=guest_dir()))
    try:
        root, kroot = work / "root", work / "kernel"
        root.mkdir()
        kernel_pkg = next(n for n in packages if n.startswith("linux-image-"))
        run(["dpkg-deb", "-x", str(files[kernel_pkg]), str(kroot)])
        kver = sorted(p.name for p in (kroot / "lib/modules").iterdir())[0]
        extract_vmlinux(kroot / "boot" / f"vmlinuz-{kver}", work / "vmlinux")
        for name, path in files.items():
            if name != kernel_pkg:
                run(["dpkg-deb", "-x", str(path), str(root)])
        for rel in PRUNE:
            shutil.rmtree(root / rel, ignore_errors=True)
        install_skeleton(root)
        compile_static(AGENT_SOURCE, root / "sbin" / "vm-agent")
        compile_static(SUDO_SOURCE, root / SUDO_IN_IMAGE)
        initramfs = work / "initramfs"
        install_initramfs(initramfs, root, kver, kroot)
        # the dynamic loader's cache spares every guest process a walk of the search path
        if find_tool("ldconfig"):
            run(["ldconfig", "-r", str(root)], check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        pyc = precompile_python(root)
        unpacked = tree_size(root)
        cpio_size = write_cpio(initramfs, work / "initrd.cpio")
        rootfs_size = write_squashfs(root, work / "rootfs.squashfs")
        manifest = {
            "hash": image_hash, "recipe": recipe_hash(), "kernel": kver, "kernel_package": kernel_pkg,
            "packages": packages, "modules": MODULES, "python": pyc,
            "initrd_bytes": cpio_size, "rootfs_bytes": rootfs_size, "unpacked_bytes": unpacked,
            "vmlinux_bytes": (work / "vmlinux").stat().st_size,
            "agent_bytes": (root / "sbin" / "vm-agent").stat().st_size,
            "build_seconds": round(time.monotonic() - started, 1),
            "download_seconds": round(t_download, 1),
        }
        (work / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
        shutil.rmtree(root)
        shutil.rmtree(kroot)
        shutil.rmtree(initramfs)
        publish(work, dest)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    prune_old_images(cache / "guest", keep=3)
    say(f"built {dest} in {manifest['build_seconds']} s (download {manifest['download_seconds']} s): "
        f"root image {rootfs_size / 1e6:.1f} MB ({unpacked / 1e6:.1f} MB of files), initrd {cpio_size / 1e6:.1f} MB, "
        f"vmlinux {manifest['vmlinux_bytes'] / 1e6:.1f} MB, kernel {kver}, agent {manifest['agent_bytes']} bytes")
    print(dest)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
