"""jq: a JSON processor implementing the jq language (paths, pipes, generators, reduce/foreach,
try/catch, label/break, def with closures, destructuring, assignment operators, regexes,
@formats, dates, modules) as Debian's jq 1.6 runs it: its output formatting, messages, exit
statuses and quirks.

Modules, bottom up: values (types, order, errors), formats (JSON text out and @formats),
jsontext (JSON text in, as jq 1.6 reads it), operations (indexing, arithmetic, paths), lexer,
parser, libm and dates (the C library's math and time functions), inputs (the input stream),
modules (finding and reading modules), builtins (natives and the jq-defined prelude), interp
(the evaluator, binding imports), cli (the command)."""
