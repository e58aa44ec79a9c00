#!/bin/sh
# The benchmark program runs every workload (tiny counts: not a timing),
# and each benchmark configuration whose LSM this boot has sets up,
# denies what it should where the benchmark measures, and measures
# open+close there (bench/guest/setup.sh), so that the benchmark cannot
# rot between runs of make bench.
. /lab/lib/lab.sh
out=$(/lab/bin/opbench -n 20 -r 3 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
if [ $rc -eq 0 ]; then ok "opbench exits 0"; else not_ok "opbench exits 0" "status $rc"; fi
for w in $(/lab/bin/opbench -l | cut -d' ' -f1); do
	if echo "$out" | grep -q "^opbench,$w,20,3,[0-9.]*,[0-9.]*,[0-9.]*$"; then
		ok "opbench measures $w"
	else
		not_ok "opbench measures $w"
	fi
done

setup=/lab/bench/guest/setup.sh
lsms=,$(cat /sys/kernel/security/lsm 2>/dev/null),

# CONFIG PLACES [prepare options]: prepare, check and measure in each place.
config() {
	config=$1 places=$2
	shift 2
	if ! out=$($setup prepare "$config" "$@" 2>&1); then
		echo "$out" | sed 's/^/# /'
		case $config:$out in
		tomoyo:*"activated already"*)
			skip "bench $config: setup" "TOMOYO was activated before this test (run bench-smoke first)"
			;;
		*) not_ok "bench $config: setup${*:+ $*}" ;;
		esac
		return
	fi
	echo "$out" | sed 's/^/# /'
	ok "bench $config: setup${*:+ $*}"
	for place in $places; do
		if out=$($setup check "$config" "$place" 2>&1); then
			ok "bench $config: the policy denies what it should, $place"
		else
			not_ok "bench $config: the policy denies what it should, $place"
		fi
		echo "$out" | sed 's/^/# /'
		out=$($setup enter "$config" "$place" -- /lab/bin/opbench -n 5 -r 1 -w open_close 2>&1)
		echo "$out" | sed 's/^/# /'
		if echo "$out" | grep -q "^opbench,open_close,5,1,[0-9.]*,[0-9.]*,[0-9.]*$"; then
			ok "bench $config: opbench measures open_close $place"
		else
			not_ok "bench $config: opbench measures open_close $place"
		fi
	done
	if out=$($setup cleanup "$config" 2>&1); then
		ok "bench $config: cleanup"
	else
		echo "$out" | sed 's/^/# /'
		not_ok "bench $config: cleanup"
	fi
}

case $lsms in *,bpf,*)
	config bpf-cgroup "inside outside" -R 11 -G 1
	config bpf-global "inside outside" -G 2
	config bpf-allow "inside outside"
	config bpf-shared "inside outside" -R 1 -G 1
	;;
esac
for lsm in landlock yama selinux apparmor smack tomoyo; do
	case $lsms in *,$lsm,*) config $lsm inside ;; esac
done
exit 0
