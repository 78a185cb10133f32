case x in (x) echo paren-pattern;; esac
