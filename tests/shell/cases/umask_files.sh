umask 077
umask
echo x > secret
ls -l secret | cut -c1-10
umask 022
