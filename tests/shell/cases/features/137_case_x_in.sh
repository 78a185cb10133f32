case x in [[:alpha:]]) echo alpha;; esac
