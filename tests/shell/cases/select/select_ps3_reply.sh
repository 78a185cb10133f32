# PS3 prompts; REPLY keeps the raw line (backslashes processed like read); clearing REPLY shows the menu again
{
  PS3='Pick one> '
  printf '1\n2\n\n3\n' | { select x in red green blue; do echo "x=$x REPLY=$REPLY"; done; }
  unset PS3
  printf '1\n2\n' | { select x in red green; do echo "x=$x"; REPLY=; done; }
  PS3=''
  printf 'a\\\\b\n1\\\n2\n' | { select x in p q r s t u v w x y z one two; do echo "x=$x REPLY=$REPLY"; done; }
  PS3='$ ' ; printf '9\n' | { select x in a b; do echo "invalid keeps REPLY=$REPLY x=[$x]"; break; done; }
} 2>&1
echo "REPLY outside pipelines: [${REPLY-unset}]"
