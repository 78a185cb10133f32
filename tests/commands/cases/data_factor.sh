# factor: N: p1 p2 ... for operands or blank-separated stdin numbers of any size; bad numbers
# are errors (status 1) and the rest goes on; lines of numbers from 2**127 up come out ahead of
# the smaller ones GNU still holds in its 512-byte line buffer
factor 12 97 1001; echo "status $?"
factor 0 1 2 +12 " 12" " +12" 012; echo "status $?"
factor x 12 "" "12 " + ++1 1e3 0x10 -- -3 "1 2" "$(printf '\t7')"; echo "status $?"
factor -- ; echo "status $?"
printf '12 x\n\t7\n\n  +9  0012\r\n5' | factor; echo "status $?"
printf '4\0 5\n6' | factor; echo "status $?"
printf '' | factor; echo "status $?"
echo 8 | factor -; echo "status $?"
factor -h; echo "status $?"
factor --bogus; echo "status $?"
factor --he | head -1
factor 340282366920938463463374607431768211456 18446744073709551629
factor 18446744073709551617 18446744073709551615 4294967291 79228160909397609687688407659
factor 123456789012345678901234567890123456789 99999999999999999999999999999999999999999999999
factor 170141183460469231731687303715884105727 2305843009213693951 1000000007
factor 618970019642690137449562111 162259276829213363391578010288127
factor 3317044064679887385961981 3825123056546413051 318665857834031151167461
seq 2 200 | factor | md5sum
seq 1000000 1000300 | factor | tail -3
factor $(( 2**62 - 57 )) $(( 2**61 - 1 )) 999999999999999989
B=99999999999999999999999999999999999999999999999
factor 6 $B 10 170141183460469231731687303715884105727 170141183460469231731687303715884105728 12
(seq 2 1500; echo $B; seq 5 7) | factor | md5sum
