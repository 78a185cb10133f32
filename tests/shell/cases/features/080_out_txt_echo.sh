> out.txt echo prefix-redirect; cat out.txt
