"""The package as built: pyproject.toml lists every package folder, and the wheel carries the two
folders beside sandbox_kernel/ — kernelspec/ and guest/ (the %%vm guest recipe) — as the
packages sandbox_kernel.kernelspec and sandbox_kernel.guest, at the paths the code reads them
from (``kernelspec.SPEC_DIR``/``SPEC_FILES``, ``guest.build.HERE``/``RECIPE_FILES``). Installed
into a fresh venv, the wheel writes the kernelspec and names the image of the checkout's recipe.
One wheel build and one venv (~15 s); tests/vm/test_wheel.py runs a %%vm cell from such an install."""
from __future__ import annotations

import json
import subprocess
import tomllib
import zipfile
from pathlib import Path, PurePosixPath

import pytest

from sandbox_kernel import kernelspec
from sandbox_kernel.guest import build
from tests.support.wheelinstall import ROOT, build_wheel, clean_env, install_wheel, tracked_files

SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
#: folder at the top of the repository -> the package it is shipped as
MAPPED = {"guest": "sandbox_kernel.guest", "kernelspec": "sandbox_kernel.kernelspec"}


def test_every_package_folder_is_listed_and_the_top_level_folders_are_mapped():
    """`packages` is a list (a search cannot rename guest/ into the package): a new package
    folder missing from it would be left out of the wheel without an error."""
    assert SETUPTOOLS["package-dir"] == {pkg: folder for folder, pkg in MAPPED.items()}
    folders = {str(PurePosixPath(name).parent) for name in tracked_files() if name.endswith(".py")}
    expected = {f.replace("/", ".") for f in folders if f == "sandbox_kernel" or f.startswith("sandbox_kernel/")}
    expected |= {MAPPED[f.split("/")[0]] for f in folders if f.split("/")[0] in MAPPED}
    assert sorted(SETUPTOOLS["packages"]) == sorted(expected)


def test_the_code_reads_the_top_level_folders():
    """In the checkout (the editable install) the paths the code uses are the folders themselves."""
    assert kernelspec.SPEC_DIR == ROOT / "kernelspec"
    assert build.HERE == ROOT / "guest"
    assert all(f.is_file() for f in (*(kernelspec.SPEC_DIR / n for n in kernelspec.SPEC_FILES), *build.RECIPE_FILES))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    return build_wheel(tmp_path_factory.mktemp("wheel"))


def test_the_wheel_holds_the_kernelspec_and_the_guest_recipe(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    spec = {f"sandbox_kernel/kernelspec/{n}" for n in kernelspec.SPEC_FILES}
    recipe = {f"sandbox_kernel/guest/{f.relative_to(build.HERE)}" for f in build.RECIPE_FILES}
    assert spec <= names, spec - names
    assert recipe <= names, recipe - names
    # every tracked file of the two folders (README, __init__.py...) and nothing else is there
    for folder, package in MAPPED.items():
        shipped = {n for n in names if n.startswith(package.replace(".", "/") + "/")}
        tracked = {package.replace(".", "/") + n[len(folder):] for n in tracked_files() if n.startswith(folder + "/")}
        assert shipped == tracked, (folder, shipped ^ tracked)
    # the folders go into the package only: no top-level guest/ or kernelspec/ in site-packages
    assert not {n for n in names if n.split("/")[0] in MAPPED}


def test_the_installed_wheel_writes_the_kernelspec_and_finds_the_recipe(wheel, tmp_path):
    python, purelib = install_wheel(wheel, tmp_path / "venv")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    prefix = tmp_path / "prefix"
    done = subprocess.run([str(python), "-P", "-m", "sandbox_kernel", "install", "--prefix", str(prefix)],
                          capture_output=True, text=True, env=clean_env(), cwd=outside)
    assert done.returncode == 0, done.stderr
    target = prefix / "share" / "jupyter" / "kernels" / "sandbox"
    assert sorted(p.name for p in target.iterdir()) == sorted(kernelspec.SPEC_FILES)
    spec = json.loads((target / "kernel.json").read_text())
    assert spec["argv"][:2] == [str(python), "-P"] and spec["language"] == "bash"
    for name in kernelspec.SPEC_FILES[1:]:
        assert (target / name).read_bytes() == (kernelspec.SPEC_DIR / name).read_bytes()
    # the image builder of the install (the script vm/image.py runs) reads the recipe beside it,
    # and it hashes as the checkout's: the install looks for the image a checkout builds
    probe = ("from sandbox_kernel import kernelspec; from sandbox_kernel.guest import build; "
             "from sandbox_kernel.vm import image; "
             "print(kernelspec.SPEC_DIR, build.HERE, image.BUILD_SCRIPT, build.recipe_hash())")
    done = subprocess.run([str(python), "-P", "-c", probe], capture_output=True, text=True, env=clean_env(),
                          cwd=outside)
    assert done.returncode == 0, done.stderr
    spec_dir, here, script, recipe_hash = done.stdout.split()
    assert Path(spec_dir) == purelib / "sandbox_kernel" / "kernelspec"
    assert Path(here) == purelib / "sandbox_kernel" / "guest" and Path(script) == Path(here) / "build.py"
    assert recipe_hash == build.recipe_hash()
