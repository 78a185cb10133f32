"""sed: stream editor (GNU sed 4.9 behaviour over the VFS).

Modules, bottom up: script (the compiled script: Address, Command, SedError), parser (script
text -> commands, addresses included), runtime (the input lines and the execution: addresses
matched, s///, the fast path, in-place editing), cli (options, the command)."""
