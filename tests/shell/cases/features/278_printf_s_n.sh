printf -- '%s\n' -x
