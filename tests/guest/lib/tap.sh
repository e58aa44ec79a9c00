# TAP helpers for guest tests written in sh; source this file.
#
#   ok "what"                 a pass
#   not_ok "what" ["why"]     a failure
#   check "what" CMD...       pass when CMD succeeds
#   check_errno ERRNO "what" CMD...
#                             pass when CMD fails and prints ERRNO
#                             (the lab's helpers print errno names)
ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1${2:+ ($2)}"; }
check() {
	_what=$1
	shift
	if _out=$("$@" 2>&1); then ok "$_what"; else not_ok "$_what" "$_out"; fi
}
skip() { echo "ok - $1 # SKIP ${2:-}"; }
