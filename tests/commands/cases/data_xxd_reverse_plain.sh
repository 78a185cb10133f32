# xxd -r -p on imperfect input: blanks skipped, one bad char drops a half byte, three end the line
for s in '30 !31 !!32\n' '33 3!4 3!!5\n36\n' '3!!5\n36\n' '3 3\n' '3\n3\n' 'zz31' '3 1' '3g1' \
         'zz\n!!!3132\nab!!!\n41' '4\r1 4' 'x4142' '41x42!!43 44\n45' '6869\n0a' '414'; do
  printf "$s" | xxd -p -r | od -An -c; echo "status $?"
done
printf '68656c6c6f' > hex; xxd -r -p hex out; cat out; echo; xxd -r -p nosuch; echo "status $?"
