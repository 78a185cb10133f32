# compiled conversions: widths counted in bytes, missing arguments, reuse of the format
printf '[%5s|%-6s|%.2s|%s]\n' é ñandú ßxy ""
printf '[%i|%05d|%-4i|%+d]\n' 7 -42 3 0x1f
printf '[%e|%.3E|%g|%G|%8.3f|%-9.1F]\n' 12345.678 0.000123 1e-5 2.5e20 3.14159 -2
printf '[%s|%d|%f]\n' only
printf '%s=%d\n' a 1 b 2 c
printf '%q|%b|%c|%x|%o\n' "a b" 'x\ty' word 255 8
printf '[%s]\n' "$(printf 'a\0b')" 2>/dev/null
printf '%3s|%-3s|\n' 'ü' 'ü'
printf '%d\n' 12abc; echo "status $?"
