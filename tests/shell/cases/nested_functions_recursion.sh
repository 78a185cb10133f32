hanoi() {
  local n=$1 from=$2 to=$3 via=$4
  (( n == 0 )) && return
  hanoi $((n-1)) $from $via $to
  echo "move $n $from->$to"
  hanoi $((n-1)) $via $to $from
}
hanoi 3 A C B | wc -l
hanoi 2 A C B
