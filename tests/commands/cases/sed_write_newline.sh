# sed's w, W and s///w write a newline only where the input line had one (else before the
# next text to that file), each file (and /dev/stdout) with its own state, as GNU sed does
printf 'a\nb' | sed -n 'W out
w out2
p;p' ; echo; od -c out; od -c out2; printf 'a\nb' | sed -n 'w /dev/stdout' | od -c; printf 'a\nb' | sed 'w /dev/stdout' | od -c
printf 'thingy' > input; printf 'again' | sed -e 's/i/z/' -e 'woutputw' input -; echo -n X; cat outputw | od -c
printf 'x\ny' | sed -n 's/y/Y/w sw' ; od -c sw; printf 'p\nq' > i2; sed -n 'w both' i2 i2; od -c both; printf 'a\nb' | sed -n 'N;W w3'; od -c w3
