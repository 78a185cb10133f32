# an arithmetic substitution in [[ ]] runs once, even when a later word needs the expander
# (an out-of-range element's message)
a=(1 2 3)
[[ $((i++)) -eq ${a[-5]} ]] 2>&1; echo "$? i=$i"
[[ $((j+=2)) == 2 && ${a[-9]} == "" ]] 2>&1; echo "$? j=$j"
[[ -n $((k=5)) || ${a[-4]} ]] 2>&1; echo "$? k=$k"
