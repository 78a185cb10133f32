# od, xxd and hexdump layouts
printf 'hello world\n\001\377\tabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz' > hb
od hb; od -c hb; od -a hb; od -x hb | head -2; od -b -v hb | head -2
od -An -tx1 -N5 hb; od -j 3 -N 4 -tc hb; od -w8 -tx1 hb | head -3; od -t x1z -A x hb | head -2
od -td1 -tc hb | head -4; od -tx2 -to1 hb | head -3; od -td4 hb; od -Ad -i hb
printf 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' | od -c
printf '' | od; od nosuch 2>/dev/null; echo "status $?"
xxd hb; xxd -g1 -c8 -l 12 hb; xxd -p hb; xxd -u -s 2 -l 20 hb; xxd -i hb; echo hello | xxd -i
xxd -b -l 4 hb; xxd -c 3 -g 0 hb | head -2; xxd hb | xxd -r | cmp - hb && echo reversed
echo 68656c6c6f0a | xxd -r -p
hexdump hb; hexdump -C hb; hexdump -C -n 5 hb; hexdump -C -s 3 -n 5 hb; hexdump -x hb | head -2
hexdump -c hb | head -2; hexdump -d hb | head -1; hexdump -o hb | head -1; hexdump -b hb | head -1
printf 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' | hexdump -C; printf 'abc' | hexdump
head -c 80 /dev/zero | xxd -a; (head -c 48 /dev/zero; echo x) | xxd -a; (head -c 32 /dev/zero; echo y) | xxd -a -c 8
printf 'ab\0hello\0x\nworld!!\0tail' | od -S 3; printf 'ab\0hello\0x\nworld!!\0tail' | od -S 3 -An -j 4; printf 'ab\0hello\0' | od --strings -Ax
printf 'hello world, this is hexdump!' > hx
hexdump -e '16/1 "%02x " "\n"' hx; hexdump -v -e '/1 "%02X "' hx; echo
hexdump -e '"%08.8_ax  " 8/1 "%02x " "  " 8/1 "%02x "' -e '"  |" 16/1 "%_p" "|\n"' hx
hexdump -e '4/4 "%08x " "\n"' hx; hexdump -e '"%_ad: " 4/1 "%c" "\n"' hx; hexdump -e '16/1 "%_u" "\n"' hx
hexdump -s 3 -n 9 -e '"%_Ax\n"' -e '"%_ad " 4/1 "%02x" "\n"' hx; hexdump -C -e '"%_Ad\n"' hx
printf '\000\001\177\200\377 a\n' > ctl; hexdump -e '8/1 "%_u|" "\n"' ctl; hexdump -e '8/1 "%_c|" "\n"' ctl
hexdump -e '2/2 "%5d" 1/4 " %x"' -e '"\n"' hx; hexdump -e '1/8 "%s\n"' hx; hexdump -e '"%s"' hx 2>/dev/null; echo "status $?"
