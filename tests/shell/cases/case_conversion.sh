s="hello World"
echo "${s^^}" "${s,,}" "${s^}" "${s~~}" 2>/dev/null || true
arr=(one two); echo "${arr[@]^}"
declare -u up; up="mixed Case"; echo "$up"
echo "${s^^[lo]}"
