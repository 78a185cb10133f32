printf 'one\n\ntwo\nthree\n' > f
nl f; nl -ba f; nl -nrz -w3 f; nl -s': ' -v5 -i2 f; nl -nln f
printf 'a\tb\tc\n\tx\n' > tabs
expand tabs; expand -t 4 tabs; expand -t 2,6 tabs; expand -i tabs
printf '        eight\n    four    x\n' | unexpand; printf '        eight  x       y\n' | unexpand -a
echo 'The quick brown fox jumps over the lazy dog and keeps running far away' > long
fold -w 20 long; fold -sw 20 long; fold -w 10 -b long
fmt -w 30 long; fmt -w 25 -u long
printf 'a b c\nlonger x y\nz\n' | column -t
printf 'k=v,1\nkey=value,22\n' | column -t -s ',='
printf 'apple\nbanana\ncherry\nd\nelderberry\nfig\n' | column -c 40
printf 'apple\nbanana\ncherry\nd\nelderberry\nfig\n' | column -x -c 40
