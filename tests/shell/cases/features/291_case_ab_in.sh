case ab in a?) echo q;; esac; case abc in a[bc]c) echo br;; esac
