x=1abc; echo $((x + 1)); echo after
