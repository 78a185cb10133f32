x=abc; [[ $x == a* && $x != *d ]] && echo combo
