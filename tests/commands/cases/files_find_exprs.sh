# find's expression errors, operators and -printf escapes
mkdir -p a/b; touch a/x
find a \( 2>&1; echo "s=$?"
find a ! 2>&1; echo "s=$?"
find a -a 2>&1; echo "s=$?"
find a \( \) 2>&1; echo "s=$?"
find a , -print 2>&1; echo "s=$?"
find a -name x -o 2>&1; echo "s=$?"
find a -type f -print , -type d -print | sort
find a -exec 2>&1; echo "s=$?"
find a -exec true \; -printf '%p\n' | sort
find a -printf 2>&1; echo "s=$?"
find a -printf '%Q\n' 2>&1 | head -2
find a -name x -printf 'a\tb\\c\n'
find a -name x -printf '%%|%5d|%-5d|\101\n'
mkdir nx && cd nx && touch -d 2020-01-01 old && touch -d 2021-06-01 mid && touch new
find . -type f -newermt '2020-06-01' | sort
find . -type f -newermt '2021-06-01 00:00:01' | sort
find . -type f ! -newermt '2020-12-31' | sort
find . -type f -newermm old | sort
find . -newermt 'garbage' 2>&1; echo "s=$?"
