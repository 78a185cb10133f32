"""Running the AST: words, arithmetic, patterns, the interpreter."""
