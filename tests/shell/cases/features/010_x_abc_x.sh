x='*'; [[ abc == $x ]] && echo globvar; [[ abc == "$x" ]] || echo quotedvar
