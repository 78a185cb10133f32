# zip -x / -d and unzip's member patterns and -x go through the one name matcher: ranges,
# negation, ? and * across a slash (Info-ZIP's default; it has no [:class:])
mkdir -p z/sub && cd z
for f in a.txt B.txt 1.txt sub/c.txt sub/9.log; do echo hi > "$f"; done
zip -qr ../x.zip . -x '[0-9]*' '*/[0-9]*'; echo "zip -x status $?"
mkdir ../o1 && (cd ../o1 && unzip -q ../x.zip && find . -type f | sort)
zip -qr ../all.zip .; cp ../all.zip ../d.zip
zip -q ../d.zip -d '[A-Z]*' 'sub/[!c]*'; echo "zip -d status $?"
mkdir ../o2 && (cd ../o2 && unzip -q ../d.zip && find . -type f | sort)
mkdir ../o3 && cd ../o3
unzip -q ../all.zip '[a-z]*'; echo "unzip status $?"; find . -type f | sort
rm -rf ./*; unzip -q ../all.zip -x '*[0-9]*' 'sub/?.txt'; echo "unzip -x status $?"; find . -type f | sort
