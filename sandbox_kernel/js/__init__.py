"""`%%js`: QuickJS-NG in wasmtime on the sandbox VFS (see engine.py and README.md)."""
