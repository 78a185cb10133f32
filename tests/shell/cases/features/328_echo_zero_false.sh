(( 0 )) || echo zero-false; (( 1 )) && echo one-true
