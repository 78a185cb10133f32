ip=192.168.1.10
if [[ $ip =~ ^([0-9]+)\.([0-9]+)\.([0-9]+)\.([0-9]+)$ ]]; then
  echo "octets: ${BASH_REMATCH[@]:1}"
fi
[[ "a.b" =~ a\.b ]] && echo escaped-dot
[[ "axb" =~ a.b ]] && echo any-char
p="a.b"; [[ "axb" =~ "$p" ]] || echo quoted-literal
[[ "foo" =~ ^(f)(o+)$ ]] && echo "${#BASH_REMATCH[@]} ${BASH_REMATCH[2]}"
