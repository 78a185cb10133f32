printf 'name,age,city\nbob,25,NY\nnocomma\n' > c
cut -d, -f2 c; cut -d, -f1,3 c; cut -d, -f2- c; cut -d, -s -f1 c; cut -d, --complement -f2 c
cut -d, -f1,3 --output-delimiter=' | ' c; cut -c1-3 c; cut -b2 c; cut -c -2,5- c
printf 'a\tb\tc\n' | cut -f2
cut -f0 c 2>/dev/null; echo "cut zero $?"
cut c 2>/dev/null; echo "cut nolist $?"
seq 3 > p1; printf 'a\nb\n' > p2
paste p1 p2; paste -d, p1 p2; paste -s p1; paste -sd+ p1
paste -d '\n' p1 p2; seq 6 | paste - -; seq 4 | paste -s -d ':,'
echo 'Hello, World!' | tr a-z A-Z; echo 'Hello' | tr '[:upper:]' '[:lower:]'
echo 'hello   world' | tr -s ' '; echo 'a1b2c3' | tr -d '0-9'; echo 'a1b2c3' | tr -cd '0-9'; echo
echo 'hello' | tr -c 'a-z' '_'; echo 'abc' | tr 'abc' '[x*]yz'; echo 'aabbcc' | tr -s 'a-c' 'x'
echo 'tabs	here' | tr '\t' ' '; echo 'x' | tr 'z-a' 'q' 2>/dev/null; echo "tr range $?"
echo abc | rev; printf 'a\nb\nc\n' | tac; printf 'a:b:c:' | tac -s:; echo
echo '{"a": 1}' | tr -d '{}"' | tr ':' '='
