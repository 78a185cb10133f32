# find -exec/-execdir with the shell, xargs, grep and wc
mkdir -p q/r && echo a > q/1.txt && echo b > q/r/2.txt && echo c > 'q/sp ace.txt'
find q -name '*.txt' -exec sh -c 'echo "[$1]"' _ {} \; | sort
find q -name '*.txt' -print0 | xargs -0 cat | sort
find q -type f -exec wc -c {} + | sort
find q -type f -execdir pwd \; | sed 's|.*/q|q|' | sort
find q -name '*.txt' -exec grep -l b {} +
find q -type f -exec test -s {} \; -print | sort
find q -type f ! -exec grep -q a {} \; -print | sort
x=$(find q -name 1.txt); echo "got $x"
find q -type d | while read -r d; do echo "dir $d"; done | sort
