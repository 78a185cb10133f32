printf 'one\ntwo\nthree\n' > lines
mapfile -t arr < lines
echo "${#arr[@]} ${arr[1]}"
readarray -t -n 2 first < lines; echo "${first[@]}"
mapfile -t -s 1 rest < lines; echo "${rest[@]}"
