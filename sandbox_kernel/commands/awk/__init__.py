"""awk: a POSIX awk with the common gawk extensions, compiled to Python for speed.

Modules: lexer (tokens), parser (AST), compiler (AST -> Python source), runtime (values,
fields, I/O; arrayorder and gawkrand reproduce gawk's for-in order and rand()), cli (the
command)."""
