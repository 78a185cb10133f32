[[ "abc" > "abd" ]] || echo notgreater
