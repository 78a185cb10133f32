# simple commands with literal redirections run compiled: files opened after the words are
# expanded, closed after the command (also when it waits or fails), errors as bash reports them
cd /tmp && rm -rf redir_case && mkdir redir_case && cd redir_case
f() { echo "in f $1"; echo "err $1" >&2; return 3; }
for i in 1 2; do
  echo "a$i" > out.txt
  echo "b$i" >> out.txt
  f x >/dev/null 2>&1; echo "f status $?"
  f y 2>/dev/null
  f z 2>&1 >/dev/null | cat
  cat < out.txt
  printf '%s\n' "p$i" 2>/dev/null 1>&2
  cat <<'EOF2'
quoted $i here-document
EOF2
  echo lost > missing/dir/file; echo "missing dir $?"
  $empty > empty.txt; echo "empty words $? $(wc -c < empty.txt)"
  echo q >&7; echo "bad fd $?"
  echo "$i" | cat > piped.txt; cat piped.txt
  read -r line < out.txt; echo "read $line"
done
set -o noclobber; echo clobbered > out.txt; echo "noclobber $?"; echo forced >| out.txt; cat out.txt; set +o noclobber
exec 3> fd3.txt; echo "to three" >&3; exec 3>&-; cat fd3.txt
echo closed >&-; echo "closed stdout $?"
g() { echo "g out"; }; g > g.txt; g >> g.txt; cat g.txt
echo both &> both.txt; ls -l nothing-here &>> both.txt; cat both.txt | sed 's/^ls: .*/ls error/'
cd /tmp && rm -rf redir_case
# expanded targets: quoted, split, globbed, ambiguous
cd /tmp && rm -rf redir_case2 && mkdir redir_case2 && cd redir_case2
for i in 1 2 3; do echo "line $i" > "f$i.txt"; echo "more $i" >> f$i.txt; done
cat f1.txt f3.txt
name="with space.txt"; echo spaced > "$name"; cat "$name"
echo split > $name; echo "split status $?"
echo glob >> f2*; cat f2.txt
echo many > f*; echo "many status $?"
unset nothing; echo none > $nothing; echo "none status $?"
n=0; echo "$((n += 1))" > "count$((n += 1)).txt"; echo "n=$n"; ls count*
cd /tmp && rm -rf redir_case2
