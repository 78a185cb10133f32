[[ -v HOME ]] && echo home-set; [[ -v NOPE ]] || echo nope-unset
