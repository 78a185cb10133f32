# GNU sed 4.9: a range from a line number starts on the first line at or past it that the
# command sees (1d;1,3p prints 2 and 3), ranges start afresh per file with -s; an escaped
# delimiter is the plain character (in the regex with its plain meaning: s.a\.b.x. matches axb;
# in the replacement literal: s1\(9\)1X\11); labels end at a blank or a semicolon
printf 'a\nb\nc\nd\n' > f4
for s in '1d;1,3p' '1,2d;2,3p' '2d;2,3p' '1d;1,2p' 'n;1,2p' '1d;1,+1p' '1d;1~2p' '1d;1,~2p' '2!d;1,3p' '1d;1,1p' '1d;0,/b/p' '$!d;1,2p' '1,2d;2,1p' '1d;1,/./p' '2,1p' '1d;1,$p' '3,5p' '1d;1!p' '1,2{1d;1,3p}' '1d;1,2{p;p}' '1d;1,2!p'; do echo "$s: $(sed -n "$s" f4 | tr '\n' ' ')"; done
echo "-s: $(sed -s -n '1d;1,2p' f4 f4 | tr '\n' ' ')"; echo "-s3: $(sed -s -n '2d;2,3p' f4 f4 | tr '\n' ' ')"
echo "nos: $(sed -n '1,2p' f4 f4 | tr '\n' ' ')"; echo "-s range: $(sed -s -n '3,5p' f4 f4 | tr '\n' ' ')"; echo "range2: $(sed -n '3,5p' f4 f4 | tr '\n' ' ')"
echo "-s regex: $(sed -s -n '/c/,/b/p' f4 f4 | tr '\n' ' ')"; echo "-s 0: $(sed -s -n '0,/b/p' f4 f4 | tr '\n' ' ')"
for s in '1,+0p' '2,~1p' '2,~0p' '1,+1p' '1d;1,+0p' '2,+1p;2,+1p' '1~2,+0p' '/a/,+0p' '/b/,1p' '$,1p' '3,2p;3,2p'; do echo "$s: $(sed -n "$s" f4 f4 | tr '\n' ' ')"; done
printf '9+8=17\n' | sed 's+9\++X+'; printf '9+8=17\n' | sed 's&9&X\&&'; printf '9+8=17\n' | sed 's1\(9\)1X\11'
printf 'a/b\n' | sed 's/a\/b/x/'; printf 'a|b\n' | sed 's|a\|b|x|'; printf 'ab|\n' | sed 's|a\|b|x|g'
printf 'a.b\n' | sed 's.a\.b.x.'; printf 'axb\n' | sed 's.a\.b.x.'; printf 'a*b aab\n' | sed 's*a\*b*x*g'
printf 'abc\n' | sed 's,b,[\,],'; printf 'abc\n' | sed 'y,b,\,,'; printf 'a/b\n' | sed '\,a/b,d;s,x,y,'; printf 'a,b\n' | sed '\,a\,b,s,a,X,'
printf 'aaa\n' | sed 's|a\{2\}|X|'; printf 'a{2}\n' | sed 's{a\{2\}{X{'
printf 'anb\n' | sed 'snanXn;sn\nnYn'; printf 'atb\n' | sed 'st\ttXt'; printf 'a&b\n' | sed 's&\&&X&'; printf 'ab\n' | sed 'sxbx[\x41]x'
printf 'a|b\n' | sed -E 's|a\|b|x|'; printf 'aab\n' | sed -E 's+a\+b+x+'
printf 'this is a regular line\nline with \\\ncontinuation\nmore regular lines\nline with \\\ncontinuation\n' | sed ': testcont; /\\$/{ =; N; b testcont }'
printf 'a\nb\nc\n' | sed -n '/a/b end ; p; :end'
printf 'a\nb\nc\n' | sed -n '/a/b end
p; :end'
printf 'a\nb\n' | sed -n '/a/{b skip };p;:skip'; echo "rc=$?"
printf 'a\nb\n' | sed ':x y;p' 2>&1; echo "rc=$?"
printf 'a\nb\n' | sed -n '/b/t;p' 2>&1; echo "rc=$?"
printf 'a\nb\n' | sed -n 's/a/A/;t lbl ;p;:lbl' 2>&1; echo "rc=$?"
