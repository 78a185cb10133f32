case "a|b" in "a|b") echo literal-pipe;; esac
