for x in {a..c}; do for y in 1 2; do printf '%s%s ' $x $y; done; done; echo
