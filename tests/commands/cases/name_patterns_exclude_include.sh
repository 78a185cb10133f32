# one matcher for names: bracket classes, ranges and GNU's unanchored --exclude rule in grep
# --include/--exclude/--exclude-dir, du --exclude, tar --exclude, diff -x, find -name
mkdir -p t/sub t/2nd t/.dot && cd t
for f in a.txt B.txt 1.txt _x.txt sub/c.txt sub/9.log 2nd/d.txt .dot/e.txt .hidden.txt; do echo hit > "$f"; done
echo "== grep --include"
for p in '[[:alpha:]]*' '[[:digit:]]*' '[[:upper:]]*.txt' '[!a]*' '[a-c]*' '?.txt' '*.log' '[[:punct:]]*'; do
  echo "-- $p"; grep -rl --include="$p" hit . | sort
done
echo "== grep --exclude / --exclude-dir"
for p in '[[:alpha:]]*' '[[:digit:]]*' '*.txt' 'sub' '.*'; do
  echo "-- $p"; grep -rl --exclude="$p" hit . | sort
  echo "-- dir $p"; grep -rl --exclude-dir="$p" hit . | sort
done
echo "-- command line"; grep -l --exclude='sub/*' hit sub/c.txt a.txt; echo "status $?"
echo "== du --exclude"
for p in '[[:digit:]]*' '[[:alpha:]]*' 'sub' '*.txt' 'sub/*.log' '.[!.]*'; do
  echo "-- $p"; du -a --exclude="$p" . | cut -f2 | sort
done
echo "== tar --exclude"
for p in '[[:digit:]]*' 'sub' '*.log' 'sub/c.txt' '[[:upper:]]*' './2nd' '.*'; do
  echo "-- $p"; tar -cf ../x.tar --exclude="$p" . && tar -tf ../x.tar | sort
done
echo "== tar members"; tar -cf ../all.tar .; tar -tf ../all.tar --wildcards './[[:alpha:]]*' | sort
cd .. && cp -r t u && echo changed > u/1.txt && echo changed > u/a.txt && echo changed > u/sub/c.txt
echo "== diff -x"
for p in '[[:digit:]]*' '[[:alpha:]]*' 'sub' '*.txt' '[!s]*'; do
  echo "-- $p"; diff -rq -x "$p" t u; echo "status $?"
done
echo "== find"; find t -name '[[:digit:]]*' | sort; find t -path '*/[[:alpha:]]*/*' | sort
echo "== grep operands"; cd t
for p in 'sub' 's*' '.*' '[[:alpha:]]*' 't'; do echo "-- $p"; grep -rl --exclude-dir="$p" hit sub ./2nd . | sort; done
cd ..; echo "== find -iname"; find t -iname '[[:upper:]]*' | sort; find t -iname '[a-b]*' | sort; find t -iname 'SUB' | sort
