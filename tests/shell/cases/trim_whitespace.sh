trim() {
  local s=$1
  s="${s#"${s%%[![:space:]]*}"}"
  s="${s%"${s##*[![:space:]]}"}"
  printf '[%s]\n' "$s"
}
trim "   padded   "
trim "none"
trim $'\t tabs \t'
