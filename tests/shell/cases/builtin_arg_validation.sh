# invalid options, `--` and too many arguments, the way bash's builtins read them
for cmd in 'type -x ls' 'command -x ls' 'hash -x' 'hash -p' 'alias -x' 'unalias' 'unalias -x' \
           'builtin -x' 'help -x' 'history -5' 'history f' 'enable -x' 'compgen -x' 'complete -x' \
           'eval -z' 'umask -rwx' 'umask -=+' 'ulimit -Z' 'dirs a' 'dirs -x' 'popd zzz' 'popd -z' 'pushd . .'; do
  eval "$cmd" 2>&1
  echo "$cmd: $?"
done
alias -- foo=echo; echo "alias --: $?"
builtin -- true; echo "builtin --: $?"
eval -- 'echo eval --'
type -t -- type
history +5; echo "history +5: $?"
set -- a b c
bash -c 'set -- a b; shift 1 2; echo not reached' 2>&1; echo "shift 1 2: $?"
bash -c 'for i in 1 2; do continue 1 2; done; echo not reached' 2>&1; echo "continue 1 2: $?"
bash -c 'exit 3 4; echo not reached' 2>&1; echo "exit 3 4: $?"
printf 'shift 1 2\necho script goes on $?\n' > args.sh; bash args.sh 2>&1
exec -- true
