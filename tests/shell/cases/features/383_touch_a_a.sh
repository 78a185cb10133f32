touch a1 a2 b1; echo a?; echo [ab]1; echo *1
