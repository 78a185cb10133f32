for c in a Z 5 ' ' '#'; do
  case "$c" in
    [[:lower:]]) echo "'$c' lower" ;;
    [[:upper:]]) echo "'$c' upper" ;;
    [[:digit:]]) echo "'$c' digit" ;;
    [[:space:]]) echo "'$c' space" ;;
    *) echo "'$c' other" ;;
  esac
done
