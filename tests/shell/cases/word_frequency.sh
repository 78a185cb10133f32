text="the quick brown fox jumps over the lazy dog the fox"
declare -A freq
for w in $text; do freq[$w]=$(( ${freq[$w]:-0} + 1 )); done
for w in "${!freq[@]}"; do echo "${freq[$w]} $w"; done | sort -k1,1nr -k2 | head -3
