#!/bin/sh
# One benchmark boot, guest side (bench/icount.sh passes it as lab.run=):
# prepare a configuration, then for each place check the policy and run
# opbench there, its lines tagged with the configuration.
#
#   run.sh [-R RULES] [-G CGROUPS] [-P PLACE[+PLACE]] CONFIG [-- OPBENCH ARGS]
#
# Prints, for each workload and place,
#   bench,CONFIG,RULES,CGROUPS,PLACE,WORKLOAD,ITERS,REPS,MIN,MEDIAN,MAX
# (RULES and CGROUPS are - where they mean nothing; PLACE is - for none).
# Exits non-zero when the setup, a check or opbench fails.
set -eu
(set -o pipefail) 2>/dev/null && set -o pipefail

setup=/lab/bench/guest/setup.sh
rules='' cgroups='' places=''
while getopts "R:G:P:" opt; do
	case $opt in
	R) rules=$OPTARG ;;
	G) cgroups=$OPTARG ;;
	P) places=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
config=${1:?usage: run.sh [-R RULES] [-G CGROUPS] [-P PLACES] CONFIG [-- OPBENCH ARGS]}
shift
[ "${1:-}" = -- ] && shift

case $config in
bpf-allow) rules=- cgroups=- places=${places:-inside+outside} ;;
bpf-*) : "${rules:=eq}" "${cgroups:=1}" "${places:=inside+outside}" ;;
none) rules=- cgroups=- places=${places:--} ;;
*) rules=- cgroups=- places=${places:-inside} ;;
esac

t0=$(date +%s)
if [ "$config" = none ]; then
	$setup prepare none
else
	$setup prepare "$config" -R "${rules#-}" -G "${cgroups#-}"
fi
echo "bench: $config prepared in $(($(date +%s) - t0))s (guest time)" >&2
for place in $(echo "$places" | tr + ' '); do
	[ "$config" = none ] || $setup check "$config" "$place"
	$setup enter "$config" "$place" -- /lab/bin/opbench "$@" |
		sed "s/^opbench,/bench,$config,$rules,$cgroups,$place,/"
done
