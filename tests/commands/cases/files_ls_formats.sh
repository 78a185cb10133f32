# ls output formats: which of -l -1 -C -x -m wins, widths, --sort/--time/--indicator-style
mkdir -p a/b a/c && touch a/f1 a/f2
for o in "-l -1" "-1 -l" "-l -C" "-C -l" "-l -m" "-m -1" "-1 -x" "-lg -1" "-n -1" "-lo" "-ls" "-1F" "-dl" "-lrS" "-Cw 12" "-xw 12" "-mw 10"; do
  echo "== $o"; ls $o a | awk '{print $1, $NF}'
done
ls --color=bogus 2>/dev/null; echo "s=$?"
ls -w x 2>/dev/null; echo "s=$?"
ls --sort=size a; ls --sort=none a | sort; ls --time=ctime -t a | wc -l
ls --indicator-style=slash a; ls --indicator-style=file-type a; ls --group-directories-first a
