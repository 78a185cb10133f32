log="2024-05-01T10:00:00 INFO  app started
2024-05-01T10:00:01 DEBUG loading config
2024-05-01T10:00:02 ERROR db unreachable
2024-05-01T10:00:03 INFO  retrying
2024-05-01T10:00:04 ERROR db unreachable
2024-05-01T10:00:05 WARN  slow response"
declare -A count
while read -r ts level msg; do
  count[$level]=$(( ${count[$level]:-0} + 1 ))
done <<< "$log"
for l in DEBUG INFO WARN ERROR; do printf '%-5s %d\n' $l ${count[$l]:-0}; done
echo "$log" | grep ERROR | cut -d' ' -f3- | sort -u
