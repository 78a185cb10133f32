# where select reads from: here-string, pipe, redirected done, file; words from "$@"
{
  select x in a b c; do echo "here-string: $x"; break; done <<< "3"
  echo 2 | select x in a b c; do echo "pipe: $x"; break; done
  printf '1\n3\n' > answers.txt
  select x in a b c; do echo "file: $x"; done < answers.txt
  echo "file status $?"
  set -- one "two words" three
  select x; do echo "positional: $x"; break; done <<< "2"
  select x in "$@"; do echo "quoted \$@: $x"; break; done <<< "3"
  set --
  select x; do echo never; done <<< "1"
  echo "no words status $?"
  select x in $nothing; do echo never; done <<< "1"
  echo "empty expansion status $?"
  printf '2' | { select x in a b; do echo "partial line: $x"; done; echo "partial status $?"; }
} 2>&1
