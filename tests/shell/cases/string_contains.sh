s="needle in haystack"
[[ $s == *needle* ]] && echo contains
[[ $s != *pin* ]] && echo no-pin
case $s in *hay*) echo case-contains;; esac
if [[ "$s" =~ in\ (hay) ]]; then echo "${BASH_REMATCH[0]}|${BASH_REMATCH[1]}"; fi
