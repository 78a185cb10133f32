IFS=,
data="a,b,,c"
for f in $data; do echo "[$f]"; done
arr=($data); echo "${#arr[@]}"
IFS=$' \t\n'
s="  x   y  "
arr=($s); echo "${#arr[@]}"
IFS= read -r raw <<< "  keep  "; echo "[$raw]"
