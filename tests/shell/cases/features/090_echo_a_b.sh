echo 'a b' > 'sp ace'; cat sp\ ace
