# POSIX mode: a special builtin is found before a function of its name; defining such a function is a fatal error
eval() { echo "shell function: $1"; }
eval 'echo before posix'
type -t eval
set -o posix
eval 'echo after posix'
type -t eval
command eval 'echo via command'
set +o posix
eval 'echo posix off'
set -o posix
echo before-def
export() { :; }
echo not reached
