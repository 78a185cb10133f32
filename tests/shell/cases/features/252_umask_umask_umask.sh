umask; umask 027; umask; umask -S
