bump() {
  local v=$1 part=$2 major minor patch
  IFS=. read -r major minor patch <<< "$v"
  case $part in
    major) major=$((major+1)); minor=0; patch=0 ;;
    minor) minor=$((minor+1)); patch=0 ;;
    patch) patch=$((patch+1)) ;;
    *) echo "bad part: $part" >&2; return 1 ;;
  esac
  echo "$major.$minor.$patch"
}
bump 1.2.3 patch; bump 1.2.3 minor; bump 1.2.3 major
bump 1.2.3 nope 2>/dev/null || echo "rc=$?"
