# ${v:-"quoted"} in a pattern or regex: the quoted part of the word matches literally
unset v
case x in ${v:-"*"}) echo "matched star";; *) echo "literal star";; esac
case '*' in ${v:-"*"}) echo "star matches star";; esac
[[ x == ${v:-"*"} ]] && echo "cond glob" || echo "cond literal"
[[ ab =~ ${v:-"a."} ]] && echo "re glob" || echo "re literal"
x=abc; echo "${x#${v:-"a*"}}" "${x#${v:-a*}}"
case x in ${v:-*}) echo "unquoted star matches";; esac
v=set; case set in ${v:-"*"}) echo "value used";; esac; w=; case x in ${w:+"*"}) echo never;; "") ;; *) echo "plus unused";; esac
