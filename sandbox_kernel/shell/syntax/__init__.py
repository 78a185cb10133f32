"""Shell source to a typed AST and back: the parser, the AST, the printer."""
