IFS=,
data="a,b,,c"
for f in $data; do echo "[$f]"; done
arr=($data); echo "${#arr[@]}"
IFS=$' \t\n'
s="  x   y  "
arr=($s); echo "${#arr[@]}"
IFS= read -r raw <<< "  keep  "; echo "[$raw]"
# leading IFS whitespace after a field in progress is part of the delimiter that ends it
IFS=$': \t'; v=$'\t::b-+a\t\t:'; set -- p$v"t" $v; printf '<%s>' "$#" "$@"; echo
v=' :	-a-			 '; set -- 'q'$v"t" $v ""$v; printf '<%s>' "$#" "$@"; echo
IFS='x '; v=' x:a-'; set -- p$v $v; printf '<%s>' "$#" "$@"; echo
IFS=' '; v='  a  b  '; set -- p$v"t" $v; printf '<%s>' "$#" "$@"; echo
IFS=:; v=':a::b:'; set -- p$v"t" $v; printf '<%s>' "$#" "$@"; echo
w=$(printf 'w%s\n' 1 2 3 4 5); IFS=$'\n'; set -- x$w"y"; printf '<%s>' "$#" "$@"; echo
unset IFS
