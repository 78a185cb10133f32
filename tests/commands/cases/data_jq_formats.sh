# jq: @formats and bytes as jq 1.6 handles them: @base64d (4 characters at a time up to '=',
# its errors), invalid UTF-8 (one U+FFFD per bad sequence), @uri's unreserved characters,
# @csv/@tsv's message, no @base32
for s in QUJD QUJDRA== QUJDRA QU=JD QUJD! QUJDa /w== wKA= 7aCA 4oKs QQ ''; do
  jq -nc --arg s "$s" '$s | try @base64d catch .'
done
jq -nc '"<>&'"'"'\"\t" | @text, @json, ([1,.] | @csv, @tsv), @html, @uri, @sh, @base64, (@base64 | @base64d)'
jq -rn '"!~*'"'"'()-_. /?#[]@$&+,;=%é" | @uri'
jq -nc '(null, true, 1) | try @csv catch ., try @tsv catch .'
jq -nc 'try @base32 catch ., try ("x" | format("base32")) catch .'
printf 'a\xffb\n\xe2\x82\n' | jq -R -c '[., length]'
