echo $'a\tb'
echo $'line1\nline2'
echo $'single \' quote'
echo $'\x41\x42'
x=$'\e[1m'; echo ${#x}
