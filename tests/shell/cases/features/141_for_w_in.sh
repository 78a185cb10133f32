for w in a b; do case $w in a) echo A;; b) echo B;; esac; done
