# find: tests, operators, actions (output sorted: real find walks in directory order)
mkdir -p t/a/b t/c t/empty && printf 'x' > t/a/one.txt && printf 'hello world' > t/a/b/two.txt
printf '' > t/c/three.log && printf '%2000s' x > t/c/big.bin && ln -s a/one.txt t/link && ln -s nope t/dang
chmod 755 t/c/three.log
find t | sort
find t -type f | sort
find t -type d | sort
find t -type l | sort
find t -name '*.txt' | sort
find t -iname '*.TXT' | sort
find t -path '*a/b*' | sort
find t -name '*.txt' -o -name '*.log' | sort
find t \( -name '*.txt' -o -name '*.log' \) -print | sort
find t -not -name '*.txt' -type f | sort
find t ! -type d ! -type l | sort
find t -type f -name 'o*' -a -size -2 | sort
find t -maxdepth 1 | sort
find t -mindepth 2 -type f | sort
find t -maxdepth 1 -mindepth 1 -type d | sort
find t -empty | sort
find t -size +1k -type f
find t -size -1k -type f | sort
find t -size 11c
find t -perm 755 -type f
find t -perm -u+x -type f
find t -regex '.*/[a-z]*\.txt' | sort
find t -regextype posix-extended -regex '.*(one|two)\.txt' | sort
find t -newer t/a/one.txt -name nothing
find t -mtime -1 -name '*.log'
find t -mmin +60 -type f
find t -path t/a -prune -o -type f -print | sort
find t -name two.txt -exec cat {} \;
find t -name '*.txt' -exec ls {} + | sort
find t -name '*.txt' -exec echo found {} \; | sort
find t -type f -printf '%f %s %d\n' | sort
find t/a -printf '%p|%P|%h|%y\n' | sort
find t -name dang -printf '%l %Y\n'
find t -type f -print0 | tr '\0' '\n' | sort
find t -depth -type d | head -0
find t/empty -empty -delete && ls t
find nope 2>&1; echo "status=$?"
find t -bogus 2>&1; echo "status=$?"
find t -name 2>&1; echo "status=$?"
find t -type q 2>&1; echo "status=$?"
find t \( -name x 2>&1; echo "status=$?"
find t -maxdepth x 2>&1; echo "status=$?"
find t -name x extra 2>&1 | head -1; echo "status=$?"
cd t && find . -name '*.txt' | sort && find -maxdepth 1 -type d | sort
