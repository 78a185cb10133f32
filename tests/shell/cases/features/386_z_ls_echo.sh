[[ -z $(ls -A) ]] && echo empty-dir
