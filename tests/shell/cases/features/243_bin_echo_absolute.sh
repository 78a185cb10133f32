/bin/echo absolute-path
