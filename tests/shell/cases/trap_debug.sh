# the DEBUG trap runs before simple commands, (( )), [[ ]], for/case heads; $? is kept
log() { echo "  [$1]"; return 7; }
trap 'log $LINENO' DEBUG
echo a; echo "status=$?"
(( x = 1 ))
[[ a == a ]]
for i in 1 2; do
  echo i=$i
done
case x in
  x) echo case ;;
esac
echo pipe | cat
f() { echo in-f; }
f
trap - DEBUG
echo done
