[[ x == [xyz] ]] && echo bracket
