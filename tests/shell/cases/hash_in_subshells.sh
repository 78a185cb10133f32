# the hash table in subshells and command substitutions: each counts its own uses in a copy of its
# parent's table, which never changes; nested ones see their parent's uses
ls >/dev/null; (ls >/dev/null; ls >/dev/null; hash)
echo --
(cat </dev/null; (tr a b </dev/null; hash); hash)
echo --
x=$(basename a; basename b; hash); echo "$x"
echo --
(wc </dev/null >/dev/null; PATH=/bin; wc </dev/null >/dev/null; hash; PATH=/usr/bin:/bin; hash)
echo --
y=$(head </dev/null; x=$(head </dev/null; hash); echo "$x"; hash -r; hash); echo "$y"
hash
echo --
# a file found by an earlier search, gone since: searched again; a remembered one: an error
mkdir -p one two; printf 'echo one\n' > one/cmd; printf 'echo two\n' > two/cmd; chmod +x one/cmd two/cmd
PATH="$PWD/one:$PWD/two:$PATH"
x=$(cmd); echo "$x"; rm one/cmd; x=$(cmd); echo "$x"; (cmd; cmd; hash | grep -c cmd)
cmd; rm two/cmd; (cmd; echo "remembered, gone: $?") 2>&1 | sed 's/.*line [0-9]*: //; s,/[^ ]*/two,TMP/two,'
