x=abc; echo $((x + 1))
