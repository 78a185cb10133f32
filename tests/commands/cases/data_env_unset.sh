# env -u removes a variable from the command's environment: exported ones and temporary
# bindings alike, several at once, with -i, as --unset=NAME; a name with = or an empty one
# is an error (125), as is a missing argument
export A=1 B=2 C=3
env -u A printenv A; echo "status $?"
X=1 Y=2 env -u X printenv X Y; echo "status $?"
env -u A --unset=B -uC printenv A B C; echo "status $?"
env -u A -u B printenv | grep -c '^[ABC]='
A=5 env -i -u A B=2 printenv; echo "status $?"
env -u A -i printenv | wc -l
env -u A A=7 printenv A
env -u NOSUCH printenv C
env -u; echo "status $?"
env --unset; echo "status $?"
env -u A=B true; echo "status $?"
env -u '' true; echo "status $?"
env -u A -u; echo "status $?"
env -u A=B --bogus; echo "status $?"
# a nested shell sees env's environment, not the caller's exported variables
X=1 Y=2 env -u X sh -c 'echo ${X-unset} $Y'
export Z=1; env -i bash -c 'echo ${Z-unset} ${PATH+path-set}'; env -u Z bash -c 'echo ${Z-unset}'
