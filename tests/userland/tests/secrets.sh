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
exit 0
