s="hello world"
[[ $s == hello* ]] && echo glob-match
[[ $s == "hello*" ]] || echo literal-no-match
[[ $s =~ ^hel+o\ (w.*)$ ]] && echo "regex: ${BASH_REMATCH[1]}"
[[ -n $s && ${#s} -gt 5 ]] && echo long
[[ a < b ]] && echo less
[[ ! -e /nonexistent ]] && echo nofile
x=5; [[ $x -eq 5 || $x -eq 6 ]] && echo five-or-six
[[ abc =~ b ]] && echo contains
