# chmod's symbolic and octal modes on files and directories (set-id bits, sticky, umask)
touch f; mkdir d
for start in 000 644 755 4755 1777 2750; do
  for m in u+x g-w o=r a+X +t u+s g+s -s a-x ug=rw o-rwx u=g g=o,o=u =rx +w a=,u+r 'u=rwx,go=' 0 7777 1644 u-w+x go+rX o+t,g-s; do
    chmod $start f && chmod $m f && a=$(stat -c %a f)
    chmod $start d && chmod $m d && b=$(stat -c %a d)
    printf '%s %s %s %s\n' "$start" "$m" "$a" "$b"
  done
done
chmod 755 d f
umask 077; chmod +w f; stat -c %a f; chmod =r f; stat -c %a f; chmod +x d; stat -c %a d
