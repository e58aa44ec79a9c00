#!/bin/sh
# nginx as Debian runs it (nginx.service), learnt while it is restarted
# and serves pages:
# the draft serves those pages and one added later; nginx reading a file
# outside its root through a link (one www-data may read) is denied with
# its event; after
# systemctl reload and systemctl restart the policy still holds (apply
# --unit follows the unit's cgroup).
. /lab/lib/lab.sh
. /lab/lib/walk.sh
cg=/sys/fs/cgroup/system.slice/nginx.service
root=/var/www/html
for p in 1 2 3 4 5; do echo "page $p" >$root/p$p.html; done
get() { curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1/$1"; }
pages() { for p in 1 2 3 4; do curl -fs "http://127.0.0.1/p$p.html"; done | tr '\n' ' '; }
systemctl is-active --quiet nginx && ok "nginx: running as a service" || not_ok "nginx: running as a service" "$(systemctl is-active nginx)"

# learnt across a restart: systemd's steps before nginx's exec, and its start, are in the draft
learn_cgroup nginx $cg 40 sh -c 'systemctl restart nginx && for i in 1 2 3; do curl -fs http://127.0.0.1/ >/dev/null; for p in 1 2 3 4; do curl -fs http://127.0.0.1/p$p.html >/dev/null; done; sleep 1; done'
checks nginx
show_draft nginx
draft_lacks nginx "on /etc or a folder of its secrets" '"/etc(/ssh|/sudoers.d|/ssl/private)?/\*\*"'
if lsmctl apply $D/nginx.yaml --unit nginx.service >$D/nginx.apply 2>&1 &&
	grep -q "^follows /system.slice/nginx.service" $D/nginx.apply; then
	ok "nginx: apply --unit nginx.service: on its cgroup, following it"
else
	not_ok "nginx: apply --unit nginx.service: on its cgroup, following it" "$(tail -n 3 $D/nginx.apply | tr '\n' '|')"
fi
sed 's/^/# apply: /' $D/nginx.apply | tail -n 3
mkdir -p /srv/private && echo private >/srv/private/key.txt && chmod 0644 /srv/private/key.txt
ln -sf /srv/private/key.txt $root/key.html

holds() {
	out=$(pages)
	[ "$out" = "page 1 page 2 page 3 page 4 " ] && ok "nginx$1: the pages of the run are served" ||
		not_ok "nginx$1: the pages of the run are served" "$out"
	[ "$(curl -fs http://127.0.0.1/p5.html)" = "page 5" ] && ok "nginx$1: a page it never served is served" ||
		not_ok "nginx$1: a page it never served is served" "$(get p5.html)"
	code=$(get key.html)
	lsmctl events --cgroup $cg --timeout 3 >$D/nginx.events 2>&1
	[ "$code" != 200 ] && grep -q "object=key.txt(read" $D/nginx.events &&
		ok "nginx$1: reading /srv/private/key.txt through a link is denied ($code), and an event names it" ||
		not_ok "nginx$1: reading /srv/private/key.txt through a link is denied, and an event names it" \
			"HTTP $code; $(head -c 300 $D/nginx.events | tr '\n' '|')"
}
holds ""
systemctl reload nginx && sleep 2
holds " after systemctl reload"
systemctl restart nginx
systemctl is-active --quiet nginx && ok "nginx: restarted under its policy" ||
	not_ok "nginx: restarted under its policy" "$(systemctl status nginx --no-pager | tail -n 5 | tr '\n' '|')"
holds " after systemctl restart"
lsmctl list | sed 's/^/# list: /'
exit 0
