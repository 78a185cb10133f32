encode() {
  local s=$1 shift=$2 out="" c i code
  for ((i=0; i<${#s}; i++)); do
    c=${s:i:1}
    case $c in
      [a-z]) printf -v code '%d' "'$c"; code=$(( (code - 97 + shift) % 26 + 97 )); printf -v c "\\$(printf '%03o' $code)" ;;
    esac
    out+=$c
  done
  echo "$out"
}
encode "hello world" 3
encode "$(encode abc 1)" 25
