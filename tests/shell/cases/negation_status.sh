! false && echo "negated false"
if ! grep -q zzz /etc/hostname; then echo "no zzz"; fi
! (exit 3); echo $?
