x=""; [ -z "$x" ] && [ ! -n "$x" ] && echo both-empty
