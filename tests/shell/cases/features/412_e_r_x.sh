[ -e / ] && [ -r / ] && [ -x / ] && echo root-ok
