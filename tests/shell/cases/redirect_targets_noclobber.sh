# a redirect word is expanded like a command word and must give one word; noclobber refuses
# > and &> on existing files but not >> or &>>; <> shares one offset; {var} fds stay open
touch one-bar
echo hi > one-*
cat one-bar
file='a b'
echo x > $file 2>/dev/null || echo "split target status=$?"
echo x > c-{1,2} 2>/dev/null || echo "brace target status=$?"
touch two-a two-b
echo x > two-* 2>/dev/null || echo "two matches status=$?"
set -C
echo foo > nc
echo bar > nc 2>/dev/null || echo "clobber refused=$?"
echo baz >> nc && echo "append ok"
echo qux &> nc 2>/dev/null || echo "both refused=$?"
echo quux &>> nc && echo "both append ok"
echo forced >| nc2
exec 3<> nc2
read -n 1 c <&3
echo -n . >&3
exec 3>&-
cat nc nc2
set +C
{ echo group; } {v}<<< walrus
cat <&$v
echo FOO > up
tr A-Z a-z < <(< up)
