# tree (ASCII art in the C locale) and its summary line
export LC_ALL=C.UTF-8
mkdir -p t/a/b/c t/e t/emp && touch t/a/x t/a/b/y t/.hid t/e/z t/f && chmod +x t/f
ln -s a t/lnk && ln -s nope t/dang && printf 'hello' > t/e/z
tree t
tree -a t
tree -d t
tree -L 1 t
tree t/a t/e
tree -F t
tree --noreport t/a
tree -i -f t/a
tree --dirsfirst t
tree -s t/e
tree -I 'x|y' t
tree -P 'x*' t
tree t/emp
tree -r t/a
tree -l t
tree nope; echo "status=$?"
tree -L 0 t 2>/dev/null; echo "status=$?"
cd t && tree && tree -d .
LC_ALL=C tree ../t/a && LANG=C LC_ALL= tree -d ../t/a
