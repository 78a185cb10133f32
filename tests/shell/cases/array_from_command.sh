files=$(printf 'a.txt\nb.txt\nc.log\n')
arr=($files)
echo ${#arr[@]}
txt=()
for f in "${arr[@]}"; do [[ $f == *.txt ]] && txt+=("$f"); done
echo "${txt[@]}"
mapfile -t lines < <(printf 'x y\nz\n')
echo "${#lines[@]} [${lines[0]}]"
