printf '%5s|%-5s|%05d|%x|%X|%o\n' ab cd 42 255 255 8
printf '%.2f %e %g\n' 3.14159 12345.678 0.0001
printf '%s\n' one two three
printf '%s=%s\n' a 1 b 2 c
printf '%c%c\n' hello world
printf '%%d literal\n'
printf '%b\n' 'esc\tape'
printf '%q\n' "it's a test"
printf -v out '%03d' 7; echo "$out"
printf '%d\n' "'A"
