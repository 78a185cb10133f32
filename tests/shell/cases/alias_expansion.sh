# aliases: recursion into the first word, trailing blanks, after assignments and redirections,
# inside $(...), backquotes, here-documents, ${...} and [[ ]]; reserved words from aliases
shopt -s expand_aliases
alias FOR1='for ' FOR2='FOR1 ' eye1='i ' eye2='eye1 ' IN='in ' onetwo='$one "2" '
one=1
FOR2 eye2 IN onetwo 3; do echo $i; done
alias hi='e_ hello world' e_='echo __'
hi
alias one='ONE ' two='TWO ' three='THREE' ee='echo '
ee one two three two one
ee one \
  two one \
  two three
alias echo-x='echo $x ' x=1
x=x
echo-x echo-x
alias SEQ='seq ' THREE='3 ' WC='wc '
SEQ THREE | WC -l
alias p_=printenv
FOO=2 p_ FOO
> out.txt e_ redirected; cat out.txt
alias echo_='echo [ '
echo "in $(echo_ cmdsub) and `echo_ backquotes` and ${u:-$(echo_ default)} and $(echo_ x; echo_ y)"
[[ $(echo_ a) == "[ a" ]] && echo "in [["
alias loop='while false; do :; done; echo after loop'
loop
cat <<EOF
$(echo_ heredoc)
EOF
echo done
