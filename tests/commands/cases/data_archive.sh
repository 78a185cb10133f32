# tar, gzip and zip round trips (members are listed in a stable order)
mkdir -p src/sub; echo hi > src/a; seq 1 200 > src/sub/b
tar czf x.tgz src; echo "status $?"; tar tzf x.tgz | sort
mkdir out; tar xzf x.tgz -C out; diff -r src out/src && echo extracted-same
tar -cf y.tar src/a src/sub/b; tar -tf y.tar; tar -xOf y.tar src/a
tar cf ex.tar --exclude=sub src; tar tf ex.tar | sort
mkdir flat; tar -xf y.tar -C flat --strip-components=2; ls flat
tar -tvf y.tar | awk '{print $1, $3, $6}'
tar tf nosuch.tar 2>/dev/null; echo "status $?"
tar xf y.tar nosuchmember 2>/dev/null; echo "status $?"
tar czf - src/a | tar tzf -
cp src/sub/b big; gzip big; ls big*; gzip -l big.gz | awk 'NR==2{print $2, $4}'
gunzip big.gz; wc -l big; gzip -k big; ls big*; zcat big.gz | tail -1
gzip big; echo "status $?"; rm big; gzip -d big.gz; wc -c big
echo hello | gzip | gzip -d; echo hello | gzip -c | zcat
gzip -t big.gz 2>/dev/null; echo "status $?"
printf 'not gzip' > fake.gz; gzip -d fake.gz 2>/dev/null; echo "status $?"
zip -q -r z.zip src; echo "status $?"; unzip -l z.zip | awk 'NR>3 && $4 ~ /src/ {print $1, $4}' | sort
mkdir uz; unzip -q z.zip -d uz; diff -r src uz/src && echo unzipped-same
unzip -p z.zip src/a; zip -d z.zip src/a; unzip -l z.zip | tail -1
zip -q none.zip nosuch 2>/dev/null; echo "status $?"
unzip -q nosuch.zip 2>/dev/null; echo "status $?"
zip -q lv.zip src/sub/b; unzip -v lv.zip | awk 'NR==4{print $1, $2, $3, $4, $7}'
