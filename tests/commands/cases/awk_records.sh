# awk's records: a command's output read with getline, RS across files, RT
printf 'aaa\n' > f1
cp f1 f2
awk 1 RS='^a' f1 f2
awk 'BEGIN { RS = "," } { print FILENAME, FNR, $0, "<" RT ">" }' f1 - f2 <<< 'x,y'
awk 'BEGIN { cmd = "echo A"; a = (cmd | getline x + 1); close(cmd); print a, x
  cmd = "echo B"; a = (cmd | getline x - 2); close(cmd); print a, x
  cmd = "echo C"; a = (cmd | getline x "s"); close(cmd); print a, x
  "echo " "date" | getline; print }'
awk 'BEGIN { FS = ":"; "echo a:bc:def" | getline; FS = "-"; print $1, NF }'
awk 'BEGIN { "printf \"1,2,3\"" | getline; print $0, "<" RT ">" }'
