case '*' in \*) echo star;; esac
