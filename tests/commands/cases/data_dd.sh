# dd: blocks, counts, skip/seek, conversions, flags, records statistics and its errors
dd if=/dev/zero of=foo seek=10k count=1 2>/dev/null; wc -c < foo; cp foo bar; cmp foo bar && echo same
dd if=/dev/zero of=file bs=1M count=1 status=noxfer; wc -c < file; dd if=/dev/zero bs=16k count=1 2>/dev/null | tail -c +8200 | wc -c
echo hello | dd skip=1 bs=2 status=none; echo hello > h; dd if=h skip=10 status=noxfer; echo "status $?"
dd if=h of=h2 seek=2 bs=3 2>/dev/null; od -c h2; echo hello | dd bs=1 count=2 seek=1 status=none; echo "status $?"
dd foo; echo "status $?"; dd bs=0; echo "status $?"; dd bs=abc; echo "status $?"; dd conv=foo; echo "status $?"
dd conv=lcase,ucase; echo "status $?"; dd iflag=foo; echo "status $?"; dd status=foo; echo "status $?"; dd -x; echo "status $?"
dd if=nosuch; echo "status $?"; dd of=/nonexist/x </dev/null; echo "status $?"; dd if=/ status=noxfer; echo "status $?"
dd if=h count=1 status=noxfer; dd if=h status=none; dd oflag=fullblock </dev/null; echo "status $?"
printf 'Hello World\n' | dd conv=ucase status=none; printf 'Hello World\n' | dd conv=lcase,swab status=none
printf 'abcde' | dd conv=swab status=none; echo; printf 'abcde' | dd conv=swab bs=2 status=none; echo
printf 'ab\ncdefghij\nk' | dd cbs=4 conv=block status=noxfer | od -c; printf 'ab  cd  efgh    i' | dd cbs=4 conv=unblock status=none | od -c
printf 'abcdefghij' | dd bs=3 count=2 status=none; echo; printf 'abcdefghij' | dd ibs=3 obs=4 status=noxfer; echo
printf 'abcdefghij' | dd bs=4 conv=sync status=noxfer | od -c; printf 'ab\ncd' | dd bs=4 cbs=3 conv=sync,block status=none | od -c
printf 'abcdefghij' | dd bs=4 count=5B status=none; echo; printf 'abcdefghij' | dd bs=4 skip=3B status=none; echo
printf 'abcdefghij' | dd bs=1x2 count=1 status=none; echo; printf 'abcdefghij' | dd ibs=2 skip=1 count=2 iflag=count_bytes status=none; echo
echo xyz > o; dd if=h of=o conv=notrunc bs=1 count=2 status=none; cat o; dd if=h of=o conv=excl; echo "status $?"
dd if=h of=nonex conv=nocreat; echo "status $?"; dd if=h of=o oflag=append conv=notrunc status=none; cat o
dd bs=K count=1 if=/dev/zero 2>/dev/null | wc -c; dd if=h bs=1 count=3 2>&1 >/dev/null | head -2; dd if=h of=/dev/stdout status=none
