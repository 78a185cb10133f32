# the shell's umask applies to files and directories the commands create
umask 077; mkdir a; touch f; mkdir -p x/y; echo hi > g; cp g h; truncate -s 1 t; cp -r x z
stat -c '%a %n' a f x x/y g h t z z/y
umask 000; mkdir b; touch bf; cp g h2; stat -c '%a %n' b bf h2
umask 022; mkdir -m 1777 s; stat -c %a s; mkdir -m u=rwx,g=,o= p; stat -c %a p
