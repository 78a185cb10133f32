[[ ab == @(ab|cd) ]] && echo extglob-cond
