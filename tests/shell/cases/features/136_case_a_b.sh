case "a.b" in *.*) echo dotted ;; esac
