# stat's default layout (owner, inode, device and time lines left out) and format widths
printf 'hello' > f; mkdir d; ln -s f l; : > e
for x in f d l e; do stat $x | sed -n '1,2p;4p' | sed 's/Uid:.*//'; done
stat -t f | cut -d' ' -f1-4,9
stat -L l | head -2
stat -c '%b %B %o %h %i' d | cut -d' ' -f1-4
stat -c '%A %a' /tmp /etc/hostname 2>/dev/null | head -1
stat -c '%n' . .. /
stat -c '%s' /dev/null
stat --format='[%N]' e
stat -c 'x%-8ny|%8n|' f
stat --printf='%s\n' f d
stat -c %z nope 2>&1; echo s=$?
stat 2>&1; echo s=$?
stat -f -c '%n' .
