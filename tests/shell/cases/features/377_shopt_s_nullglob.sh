shopt -s nullglob; for f in *.none; do echo "loop $f"; done; echo end
