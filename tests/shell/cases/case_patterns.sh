for f in report.txt image.PNG archive.tar.gz notes script.sh README; do
  case "$f" in
    *.txt|*.md) echo "$f: text" ;;
    *.[Pp][Nn][Gg]) echo "$f: image" ;;
    *.tar.*) echo "$f: archive" ;;
    *.sh) echo "$f: script" ;;
    [A-Z]*) echo "$f: upper" ;;
    *) echo "$f: unknown" ;;
  esac
done
