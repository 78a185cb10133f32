# ls -v (GNU filevercmp) and -X (extension) sorting
touch f1 f10 f2 f1.10 f1.2 a.txt B.txt _x .h f01 f001 file-1.2.3 file-1.10.0 file-1.2.10 ab a-b a_b 'a b' A Z z 1 10 9
ls -v
ls -X
ls -vr | head -5
ls
ls -a | head -4
export LC_ALL=C
mkdir -p v && cd v && touch f1 f10 f2 f1.10 f1.2 x.tar.gz x.tar x.gz y.c y.h
tree -v --noreport .
ls -X
ls -Xr
# equal prefixes by number ('01' and '1') are told apart by the whole names, as sort -V does
mkdir vp && cd vp && touch 01.Z1 1 9 09.bbb b0 b.aa 01.~ '~.b' '~0' && ls -v && printf '%s\n' * | sort -V && cd ..
