# echo and printf as programs (env, xargs, find -exec run /usr/bin/echo and /usr/bin/printf):
# GNU coreutils' echo and printf, which differ from bash's builtins (\41 is octal for echo -e,
# \c in a printf format stops everything, %#d and %5b are errors, no -v)
export LC_ALL=C
env echo -ne '\41z|\E|\u41|\x41|\x|\0|\0101|\101|\1011|\e|\q|\\|' | od -c
env echo -e 'a\cb' c; echo " rc=$?"; env echo -n -e x -n; echo; env echo -; env echo -- a; env echo -x a; env echo --version | head -1; env echo --help x; env echo -e '\0' | od -c; env echo -E '\n'; env echo 'a\nb'
P="env printf"
$P '%d|%d|%d|%x|%d|%d\n' 0x10 010 ' 7' -1 "'a" '"b'; echo "rc=$?"; $P '%d|' "'" "'ab" 12abc abc 99999999999999999999 ' ' '99999999999999999999x' 08 0x; echo " rc=$?"
$P '%c|' | od -c; $P 'a\cb%s' x; echo " rc=$?"; $P '%d\c' x; echo " rc=$?"; $P 'x%sy\n' 1 2 3; $P 'x\n' 1 2; echo "rc=$?"
$P '%b|' 'a\0101\101\cb' z; echo " rc=$?"; $P '\0101|\101|\1011\n'; $P '\x' ; echo " rc=$?"; $P 'a\u00e9|\u0041|'; echo " rc=$?"
$P '%q|%q|%q|%q|%q\n' 'a b' '' "a'b" 'x
y' 'a$b'; $P -v x; echo; $P -- '%s\n' a; $P; echo "rc=$?"; $P '%*d|' 99999999999 1; echo "rc=$?"; $P '%.*d|' -5 3 99999999999 1; echo "rc=$?"
$P '%f|%e\n' 0.1x 1e99999; echo "rc=$?"; $P '\q\"\\\a' | od -c | head -2; $P '%5s|%-5s|%.1s|%5c|%-3c|\n' ab cd ef g h
$P '%i %u %o %X %#X %+d % d %05d %-5d| %.3d %x\n' 1 2 8 255 255 3 4 5 6 7 -1
for f in '%#d' '%+s' '% c' "%'d" '%lld' '%hhd' '%Lf' '%zd' '%jd' '%qd' '%5.2q' '%n' '%(%Y)T' '%y' '%5%' '%.-5d' '%-0.-5d' '%I' "%'s" '%#s' '%#c' '%0s' '%#x' '%#o' '%#.0f' '%.3c' '%.3b' '%5b' '%-5b|' '%Q' '%lf' '%Lg' '%hf' '%ls' '%lc' '%ll5d' '%hhhd' '%tx' 'ab%' 'ab%5' 'ab%-' 'ab%.' 'ab%l' 'x\' '%s%' "%'.3f" '%I5d' '%.20f' '%a' '%.0e'; do printf '%-10s' "$f"; $P "[$f]" 42 2>&1; echo " rc=$?"; done
echo x y | xargs echo -e 'a\41'; find /dev/null -exec printf '%s\c|' {} \; ; echo
LC_ALL=C.UTF-8 env printf 'a\u00e9|\U0001F600|\n'
(exec echo -ne '\41z') | od -c; (exec printf '%s\c|x' a; echo no); echo; echo x | xargs printf '%s\c|'; echo
find /dev/null -exec echo -e '\101' \; ; timeout 5 printf 'a\cb\n'; echo; /bin/echo -e '\0101'; echo -e '\41' '\0101'
