shopt -s nocasematch
[[ HELLO == hello ]] && echo match
case ABC in abc) echo case-match;; esac
shopt -u nocasematch
[[ HELLO == hello ]] || echo no-match
