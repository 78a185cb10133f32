for choice in 1 2 x 3; do
  case $choice in
    1) echo "option one" ;;
    2) echo "option two" ;;
    3) echo "quit"; break ;;
    *) echo "invalid: $choice" ;;
  esac
done
