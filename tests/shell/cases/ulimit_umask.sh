# ulimit keeps soft and hard values with the kernel's rules; umask reads bash's symbolic grammar
ulimit -f; ulimit -H -t
ulimit -f $(( 1 << 32 )); ulimit -f
ulimit -S -t 123456; ulimit -S -t; ulimit -H -t
ulimit -H -t 123457; ulimit -t; ulimit -H -t
ulimit -t 123455; ulimit -S -t; ulimit -H -t
ulimit -S -t 123456; echo "soft above hard: $?"
ulimit -H -t 200000; echo "raise hard: $?"
ulimit -t unlimited; echo "unlimited: $?"
ulimit -t hard; ulimit -t
for v in zz -- -42 1x 99999999999999999999; do ulimit -c $v; echo "ulimit -c $v: $?"; done
ulimit -c 5; ulimit -c; ulimit -f -c
ulimit -p 9; echo "pipe size: $?"
( ulimit -c 1; ulimit -c ); ulimit -c
bash -c 'ulimit -n 0; echo hi > out' 2>/dev/null; echo "ulimit -n 0: $?"
umask 0124
for m in -rwx u=, 'u=, g+' u+r+w+x a+x+wr-r u=g o+s ,; do umask $m 2>&1; echo "umask $m: $?"; umask; done
umask 0888 2>&1; umask 12345 2>&1; umask 7777; umask
umask u=rwx,g=rx,o=; umask; umask -S; umask -p; umask -p -S
umask 0002; echo one > f1; umask g-w,o-w; echo two > f2; stat -c '%a %n' f1 f2
