"""The kernelspec (package data): ``kernel.json``, the template ``python -m sandbox_kernel install``
(``kernel/install.py``) completes with the interpreter and the admin's policy, and the logos
(drawn by ``scripts/make_logos.py``). The one place that names this directory and its files."""
from pathlib import Path

SPEC_DIR = Path(__file__).resolve().parent
SPEC_FILES = ("kernel.json", "logo-32x32.png", "logo-64x64.png")
