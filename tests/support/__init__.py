"""Helpers shared across the test suite's folders, imported as ``tests.support.<module>``:
prereqs (missing QEMU, Chromium, host tools: skip locally, fail in CI), difftest (a script in
GNU bash and in the sandbox), session (a sandbox kept across runs), kernelclient (a real kernel
over jupyter_client), wsclient (a kernel through a gateway's REST API and websocket),
browserlab (JupyterLab, gateways and headless Chromium), tmuxterm (a program in a real
terminal), tlshelpers (a loopback server's certificate). Helpers one folder uses stay there
(commands/helpers.py, hostile/bombs.py, js/jshelp.py, vm/vm_helpers.py)."""
