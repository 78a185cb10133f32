# break and continue aimed at select and at loops around it
two_out() {  # $1: break or continue, aimed two loops out of a select inside a for
  for i in 1 2; do
    select x in a b; do echo "$i $x"; "$1" 2; done
    echo "not reached"
  done
  echo "$1 2 status $?"
}
{
  printf '1\n2\n' | { select x in a b; do echo "picked $x"; break; done; echo "break status $?"; }
  printf '1\n' | { select x in a b; do false; break; done; echo "false;break status $?"; }
  printf '1\n2\n3\n' | { select x in a b c; do echo "got $x"; (exit 3); continue; echo never; done; echo "eof status $?"; }
  printf '1\n2\n' | two_out break
  printf '1\n2\n3\n' | two_out continue
  printf '2\n1\n' | {
    while true; do
      select x in a b; do
        case $x in
          a) echo "inner a: leave both"; break 2 ;;
          b) echo "inner b: next prompt"; continue ;;
        esac
      done
      echo "not reached"
    done
    echo "while status $?"
  }
  printf '1\n1\n' | { select x in a; do select y in b; do echo "$x$y"; break 2; done; done; echo "nested status $?"; }
} 2>&1
