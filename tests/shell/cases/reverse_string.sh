rev_str() {
  local s=$1 out="" i
  for ((i=${#s}-1; i>=0; i--)); do out+=${s:i:1}; done
  echo "$out"
}
rev_str "hello world"
is_pal() { [[ $1 == "$(rev_str "$1")" ]]; }
for w in racecar level hello; do is_pal $w && echo "$w yes" || echo "$w no"; done
