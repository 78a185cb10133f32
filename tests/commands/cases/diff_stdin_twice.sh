# diff - - compares standard input with itself: the same file, which GNU diff does not read
printf 'stdin' | { diff - -; echo $?; wc -c; }
printf 'x\ny\n' | { diff -u - -; echo $?; cat; }
printf 'x\n' > f; printf 'y\n' | { diff - f; echo $?; }
