# bash's printf reads numbers with strtold and prints long doubles (x87: a 64-bit significand),
# every digit rounded from the exact value, half to even
printf '%.20f|%.30e|%Lg|%g\n' 0.1 1.1 1e4000 1e-4940
printf '%a|%A|%.0a|%.0a|%.2a|%a|%a|%#a\n' 1 42 15.5 31 0.1 0x1p-16445 0 2
printf '%.0f %.0f %.0f %.1f %.2f\n' 0.5 1.5 2.5 0.25 1.005
printf '%05f|%-5e|%+f|% F|%06.1f\n' inf inf nan -nan -inf
printf '%#.0e|%#.0f|%#g|%#.3g|%.0e|%g|%g\n' 42 42 42 1 5 100000 1000000
printf '%.25e|%e|%.0f\n' 1.18973149535723176502e+4932 0x1.8p-16400 1e300
printf '%.60f\n' 0.3333333333333333333333333
printf '%d|%c|%5.3s|%.0d|%#.0o|%#x|%05.3d|%-+5d|% d\n' 0x1f '' abcdef 0 0 0 5 3 4
printf '%lld %hhd %zd %jd %Lf %qd\n' 1 2 3 4 5 6
printf '%c|' | od -An -c
printf 'a\cb|a\xg|\n'; echo "status $?"
printf 'ab%n|' x; echo "x=$x"
printf '%s%l(x)X|' a b; echo
printf '%b%d' 0 5.25 '\c'; echo " status $?"
printf -v v 'ab%y'; echo "status $? [$v]"
printf '%(%Y)T|' 67768036191676800 0; echo
