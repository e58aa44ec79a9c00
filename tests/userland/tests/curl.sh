#!/bin/sh
# curl fetching a page of the machine's nginx: the draft passes the same
# fetch; the same curl connecting to another port, or writing a file it
# never wrote, is denied with its event.
. /lab/lib/lab.sh
. /lab/lib/walk.sh
job='curl -fsS http://127.0.0.1/ >/dev/null'
walk curl "$job"
denied curl "a connection to port 8080" 8080 "curl -fsS http://127.0.0.1:8080/ >/dev/null"
denied curl "writing the page to /root/page" "object=page(" "curl -fsS -o /root/page http://127.0.0.1/"
exit 0
