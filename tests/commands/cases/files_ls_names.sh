# ls with awkward names, symlinked directories and trailing slashes
mkdir -p 'sp ace' d/x d/y && touch 'a b' $'new\nline' 'q"uote' "s'q" Zed ábc _u .dot
ls
ls -1 | wc -l
ls d/ d
ls -d */
ls -d d/*
ls -ld d/ | cut -c1
ln -s d ld; ls ld/; ls -l ld/ | head -1; ls -d ld/ ld
ls -R d | cat
ls -a d/x
ls -la d/x | awk '{print $1, $NF}'
ls ./d
ls -1 -C d | cat
ls -l -1 d | awk '{print $NF}'
ls -lL ld | head -1
ls -F ld
ls -Fd ld
ls -H ld
ls -p ld
ls d nonexist 2>&1
ls -r d
ls -A | head -3
cd d && ls .. | head -2
