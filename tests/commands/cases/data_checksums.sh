# checksums, check mode, base64/base32, cksum
printf 'hello\n' > a; printf 'x' > b
md5sum a b; sha1sum a; sha256sum -b a b; sha512sum a | cut -c1-40; b2sum -l 128 a; sha224sum a; sha384sum a | cut -c1-20
echo hi | md5sum; md5sum --tag a
md5sum a b > sums; printf 'x\n' > b; echo 'bad line' >> sums
md5sum -c sums; echo "status $?"
md5sum -c --quiet sums; echo "status $?"
md5sum -c --status sums; echo "status $?"
sha1sum a | sha1sum -c; echo "status $?"
md5sum missing 2>/dev/null; echo "status $?"
cksum a; printf '' | cksum; cksum -a sha256 a
printf 'hello world' | base64; printf 'hello world' | base64 | base64 -d; echo
seq 1 100 | base64 -w 40 | head -3; seq 1 100 | base64 -w0 | base64 -d | tail -1
printf 'YWJjZA' | base64 -d; echo " status $?"
printf 'YWJj!!ZA==' | base64 -di; echo " status $?"
printf 'abc' | base32; printf 'MFRGG===' | base32 -d; echo
