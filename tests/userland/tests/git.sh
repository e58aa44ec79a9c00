#!/bin/sh
# git, in a repository that stays and in one made and removed by the run:
# the draft passes the same run; git fetching over http (a helper
# program the run never started) and reading a key it never read are
# denied, each with its event.
. /lab/lib/lab.sh
. /lab/lib/walk.sh
git config --global user.email lab@example.org
git config --global user.name lab
git config --global init.defaultBranch main
mkdir -p /srv/repo && cd /srv/repo && git init -q && echo one >f && git add f && git commit -qm one

job='cd /srv/repo && date >>f && git add f && git commit -qm more && git log --oneline | wc -l'
learn git sh -c "$job"
checks git
show_draft git
draft_lacks git "for the whole of /etc" '"/etc/\*\*"'
enforce git
passes git "a commit in the kept repository" "$job"
mkdir -p /root/.ssh && echo key >/root/.ssh/id_ed25519
# (the shell's own read: a program the run never started would be denied first)
denied git "a commit that also reads ~/.ssh/id_ed25519" "object=id_ed25519(read" "$job && read k </root/.ssh/id_ed25519"
denied git "git ls-remote over http (git-remote-http)" "object=git-remote-http(exec" "cd /srv/repo && git ls-remote http://127.0.0.1/x.git"

# a second run widens the first's draft (learn --merge), as aa-logprof does
logjob='cd /srv/repo && git log --stat -2 >/dev/null && git status --short'
if lsmctl learn -o $D/git2.yaml --merge $D/git.yaml -- sh -c "$logjob" >$D/git2.learn 2>&1; then
	ok "git2: learn --merge wrote a draft of both runs"
else
	not_ok "git2: learn --merge wrote a draft of both runs" "$(tail -n 3 $D/git2.learn | tr '\n' '|')"
fi
checks git2
enforce git2
passes git2 "the first run (a commit)" "$job"
passes git2 "the second run (log and status)" "$logjob"
denied git2 "the shell reading ~/.ssh/id_ed25519" "object=id_ed25519(read" "$logjob && read k </root/.ssh/id_ed25519"

tmpjob='rm -rf /tmp/t && git init -q /tmp/t && cd /tmp/t && echo a >a && git add a && git commit -qm a && cd / && rm -rf /tmp/t'
learn gittmp sh -c "$tmpjob"
checks gittmp
show_draft gittmp
enforce gittmp
passes gittmp "a repository made, committed to and removed again" "$tmpjob"
exit 0
