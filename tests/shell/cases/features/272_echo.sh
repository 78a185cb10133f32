echo '\\'
