echo data > f; mkdir d; ln -s f link
[ -f f ] && echo f-file
[ -d d ] && echo d-dir
[ -L link ] && echo link-symlink
[ -h link ] && echo h-symlink
[ -s f ] && echo nonempty
[ -r f -a -w f ] && echo rw
[ -x f ] || echo not-exec
chmod +x f; [ -x f ] && echo exec
touch -d '2020-01-01' old 2>/dev/null || touch old
[ f -nt /etc/passwd ] && echo newer
[ f -ef link ] && echo same-file
