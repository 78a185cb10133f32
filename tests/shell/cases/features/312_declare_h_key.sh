declare -A h; key="a b"; h[$key]=spaced; echo "${h[a b]}" "${h["a b"]}" "${h[$key]}"
