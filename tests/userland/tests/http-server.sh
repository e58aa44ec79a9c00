#!/bin/sh
# python3's http.server serving a folder, its client outside the cgroup:
# the draft serves the pages of the run and a page added to the folder
# later; the server reading /etc/shadow (a link in the folder) is denied
# and the event names shadow.
. /lab/lib/lab.sh
. /lab/lib/walk.sh
mkdir -p /srv/www && for p in a b c d e; do echo "page $p" >/srv/www/$p.html; done
serve='cd /srv/www && exec python3 -m http.server --bind 127.0.0.1 8000'
get() { curl -fs "http://127.0.0.1:8000/$1"; }
up() {
	_i=0
	until get a.html >/dev/null; do
		_i=$((_i + 1))
		[ $_i -gt 300 ] && return 1
		sleep 0.2
	done
}
stop() { pkill -f 'http.server --bind 127.0.0.1 8000'; sleep 1; }

t0=$(date +%s)
lsmctl learn -o $D/http.yaml --timeout 120 -- sh -c "$serve" >$D/http.learn 2>&1 &
pid=$!
up || echo "# the server did not answer while learning"
for p in a b c d; do get $p.html >/dev/null || echo "# $p.html failed while learning"; done
stop
wait $pid
rc=$?
sed 's/^/# learn: /' $D/http.learn | tail -n 3
[ $rc -eq 0 ] && ok "http: learn wrote a draft ($(($(date +%s) - t0)) s)" || not_ok "http: learn wrote a draft" "status $rc"
checks http
show_draft http
draft_lacks http "on /etc or a folder of its secrets" '"/etc(/ssh|/sudoers.d|/ssl/private)?/\*\*"'
enforce http

in_cg $W/http "$serve" >$D/http.server 2>&1 &
if up; then
	out=$(for p in a b c d; do get $p.html; done | tr '\n' ' ')
	[ "$out" = "page a page b page c page d " ] && ok "http: under its draft, the pages of the run are served" ||
		not_ok "http: under its draft, the pages of the run are served" "$out"
	echo "page f" >/srv/www/f.html
	out=$(get f.html)
	[ "$out" = "page f" ] && ok "http: under its draft, a page added to the folder later is served" ||
		not_ok "http: under its draft, a page added to the folder later is served" "$out"
	ln -sf /etc/shadow /srv/www/s.html
	out=$(get s.html)
	if [ -n "$out" ]; then
		not_ok "http: under its draft, the server reading /etc/shadow is denied" "served: $(echo "$out" | head -c 80)"
	else
		lsmctl events --cgroup $W/http --timeout 3 >$D/http.events 2>&1
		grep -q 'object=shadow(read' $D/http.events &&
			ok "http: under its draft, the server reading /etc/shadow is denied, and an event names it" ||
			not_ok "http: under its draft, the server reading /etc/shadow is denied, and an event names it" \
				"$(head -c 300 $D/http.events | tr '\n' '|')"
	fi
else
	not_ok "http: under its draft, the server answers" "$(tail -n 5 $D/http.server | tr '\n' '|')"
fi
stop
exit 0
