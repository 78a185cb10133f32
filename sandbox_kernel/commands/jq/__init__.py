"""jq: a JSON processor implementing the jq language (paths, pipes, generators, reduce/foreach,
try/catch, label/break, def with closures, destructuring, assignment operators, regexes,
@formats, dates) with jq 1.6's output formatting, messages' shape and exit statuses.

Modules, bottom up: values (types, order, errors), formats (JSON text and @formats), operations
(indexing, arithmetic, paths), lexer, parser, builtins (natives and the jq-defined prelude),
interp (the evaluator), inputs (the input stream), cli (the command)."""
