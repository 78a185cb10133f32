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
