alias hi='echo alias'
hi 2>/dev/null || echo "aliases off in scripts"
shopt -s expand_aliases
alias hi2='echo alias2'
eval hi2
