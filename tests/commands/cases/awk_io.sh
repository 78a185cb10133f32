# awk's pipes, commands and system() run inside the sandbox
printf '10 apples\n3 pears\n25 kiwis\n' > fruit
awk '{ print $1 | "sort -n" }' fruit
awk 'BEGIN { "echo 5" | getline v; print v + 1, (v < 10) }'
awk 'BEGIN { while (("printf \"a\\nb\\n\"" | getline line) > 0) n++; print n }'
awk 'BEGIN { r = system("exit 3"); print "status", r }'
awk 'BEGIN { system("echo from system"); print "after" }'
awk '{ print $2 > "names.txt" } END { close("names.txt"); system("cat names.txt") }' fruit
awk 'BEGIN { cmd = "sort -r"; print "a" | cmd; print "c" | cmd; print "b" | cmd; r = close(cmd); print "closed", r }'
awk 'BEGIN { print "x" | "cat 1>&2" }' 2>/dev/null
echo "status $?"
