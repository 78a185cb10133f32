set -u; echo "${#unset_var}"
