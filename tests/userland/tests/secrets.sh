#!/bin/sh
# A run that writes, reads and removes files next to secrets (a file and
# a log in /etc): the draft names those files, never /etc's subtree,
# which would take /etc/shadow with it; it passes the same run, and the
# same program removing /etc/hostname, or reading /etc/shadow, is
# denied. A run that makes a file in /etc: no rule for that (a create is
# a folder's subtree), and the draft says why.
. /lab/lib/lab.sh
. /lab/lib/walk.sh
setup='echo x >/etc/lab-scratch && touch /etc/lab-app.log'
sh -c "$setup"
job='echo y >/etc/lab-scratch && cat /etc/lab-scratch >/dev/null && echo line >>/etc/lab-app.log && rm /etc/lab-scratch'
learn secrets sh -c "$job"
checks secrets
show_draft secrets
enforce secrets
sh -c "$setup"
passes secrets "the same run" "$job"
draft_lacks secrets "on /etc or a folder of its secrets" '"/etc(/ssh|/sudoers.d|/ssl/private)?/\*\*"'
sh -c "$setup"
denied secrets "removing /etc/hostname" "object=hostname(unlink" "$job; rm -f /etc/hostname"
sh -c "$setup"
denied secrets "reading /etc/shadow" "object=shadow(read" "$job && read l </etc/shadow"

learn mkfile sh -c 'echo x >/etc/lab-new && rm /etc/lab-new'
draft_lacks mkfile "on /etc or a folder of its secrets" '"/etc(/ssh|/sudoers.d|/ssl/private)?/\*\*"'
grep -q "^# - create of 'lab-new' in /etc by sh: no rule" $D/mkfile.yaml &&
	ok "mkfile: the draft says why it has no rule for creating /etc/lab-new" ||
	not_ok "mkfile: the draft says why it has no rule for creating /etc/lab-new" "$(grep '^# - ' $D/mkfile.yaml | tr '\n' '|')"
# review 13: a folder made and removed in a folder of keys, and a *.log
# written in an application's folder, widen nothing
mkdir -p /etc/lab-keys /opt/lab-app && echo key >/etc/lab-keys/k.pem && touch /opt/lab-app/app.log
learn widen sh -c 'mkdir -p /etc/lab-keys/t/u && echo x >/etc/lab-keys/t/u/f && cat /etc/lab-keys/t/u/f && rm -r /etc/lab-keys/t && echo l >>/opt/lab-app/app.log'
# (create and unlink of the folder it made take the folder's subtree: a
# policy's create is a subtree's; reading or writing its keys must not)
if grep -A1 '"/etc/lab-keys/\*\*"' $D/widen.yaml | grep -q "access: .*\(read\|write\)"; then
	not_ok "widen: no read or write of the folder of keys a removed folder was in" \
		"$(grep -A1 lab-keys $D/widen.yaml | tr '\n' '|')"
else
	ok "widen: no read or write of the folder of keys a removed folder was in"
fi
draft_lacks widen "on the application's folder for its .log" '"/opt/lab-app/\*\*"'
grep -q '^  - files: "/opt/lab-app/app.log"$' $D/widen.yaml &&
	ok "widen: the .log file is named, as any file" ||
	not_ok "widen: the .log file is named, as any file" "$(grep lab-app $D/widen.yaml | tr '\n' '|')"
exit 0
