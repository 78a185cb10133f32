# case and [[ ]] matching
n=0
for w in $(seq 1 5000); do
  case "$w" in
    *7*) n=$((n + 1)) ;;
    [12]?) n=$((n + 2)) ;;
    *) ;;
  esac
  [[ $w =~ ^9+$ ]] && n=$((n + 100))
done
echo $n
