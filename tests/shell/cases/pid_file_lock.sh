lock=app.lock
acquire() { if [ -e "$lock" ]; then echo "locked by $(cat $lock)"; return 1; fi; echo $1 > "$lock"; }
release() { rm -f "$lock"; }
acquire first && echo "first got lock"
acquire second || echo "second waits"
release
acquire second && echo "second got lock"
release; [ ! -e "$lock" ] && echo released
