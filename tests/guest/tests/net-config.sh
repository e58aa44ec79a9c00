#!/bin/sh
# The machine's network configuration with Debian's own tools: under
# self-protection, root inside a confined cgroup adds a DNAT rule on
# OUTPUT with iptables (nf_tables, and legacy's IPT_SO_SET_REPLACE) and a
# table with nft in init_net: EPERM, and the rule is not there when
# listed from outside; a sibling cgroup with no policy does the same
# (the control, undone after), and so does the confined task in a network
# namespace of its own (unshare -n). Netfilter comes from modules loaded
# at boot outside any policy (debian); a kernel without it skips.
# On each backend, or on $1 alone.
. /lab/lib/lab.sh
L=/lab/bin/lsmctl
each_backend "$@"
cg=/sys/fs/cgroup/nc-$backend
ctl=/sys/fs/cgroup/nc-$backend-ctl
mkdir -p $cg $ctl
# an address a connect rule could name, and where DNAT would send it
dnat="-d 10.99.1.1/32 -p tcp --dport 80 -j DNAT --to-destination 10.99.1.2:80"
nft_dnat="ip daddr 10.99.1.1 tcp dport 80 dnat to 10.99.1.2:80"

have_nft=0 have_legacy=0
nft list tables >$lab_out 2>&1 && have_nft=1
iptables-legacy -t nat -S >>$lab_out 2>&1 && have_legacy=1
if [ $have_nft = 0 ] && [ $have_legacy = 0 ]; then
	skip "net-config" "no netfilter in this kernel ($LAB_VARIANT): $(head -n 1 $lab_out | head -c 200)"
	rmdir $cg $ctl
	exit 0
fi
printf 'name: nc-%s\nrules:\n  - ptrace: deny\n' $backend >/tmp/nc.yaml
check "apply ($backend backend, self-protection on by default)" \
	$L apply /tmp/nc.yaml --cgroup $cg --backend $backend

# ipt TOOL: the DNAT rule on OUTPUT, from the sibling (then deleted from
# outside), from inside (EPERM, and not listed from outside), and from
# inside in a namespace of its own (listed there)
ipt() {
	_t=$1
	control "$_t -t nat -A OUTPUT (DNAT)" "$_t -t nat -A OUTPUT $dnat" &&
		$_t -t nat -D OUTPUT $dnat
	check "$_t -t nat -S reads the machine's table inside" in_cg $cg "$_t -t nat -S OUTPUT"
	expect_eperm "$_t -t nat -A OUTPUT (DNAT) in init_net" "$_t -t nat -A OUTPUT $dnat"
	if $_t -t nat -S OUTPUT 2>&1 | grep -q 10.99.1.2; then
		not_ok "the machine's nat table has no rule from inside ($_t)" "$($_t -t nat -S OUTPUT 2>&1)"
		$_t -t nat -D OUTPUT $dnat
	else
		ok "the machine's nat table has no rule from inside ($_t)"
	fi
	check "$_t -t nat -A OUTPUT (DNAT) in a network namespace of its own works inside" \
		in_cg $cg "unshare -n sh -c '$_t -t nat -A OUTPUT $dnat && $_t -t nat -S OUTPUT | grep -q 10.99.1.2'"
}
if [ $have_nft = 1 ]; then
	ipt iptables-nft
else
	skip "iptables-nft" "no nf_tables in this kernel"
fi
if [ $have_legacy = 1 ]; then
	ipt iptables-legacy
else
	skip "iptables-legacy" "no ip_tables in this kernel"
fi

# nft: a table, then a nat chain on output with a DNAT rule in it
nft_table="nft add table ip labnc && nft add chain ip labnc out '{ type nat hook output priority 0; }' && nft add rule ip labnc out $nft_dnat"
if [ $have_nft = 1 ]; then
	control "nft: a table, a nat chain on output, a DNAT rule" "$nft_table" &&
		nft delete table ip labnc
	check "nft list tables reads the machine's inside" in_cg $cg "nft list tables"
	expect_eperm "nft add table ip labnc in init_net" "nft add table ip labnc"
	expect_eperm "nft: a table, a nat chain and a DNAT rule in one batch, in init_net" \
		"nft -f - <<N
table ip labnc {
	chain out {
		type nat hook output priority 0;
		$nft_dnat
	}
}
N"
	if nft list tables 2>&1 | grep -q labnc; then
		not_ok "the machine has no nft table from inside" "$(nft list tables 2>&1)"
		nft delete table ip labnc
	else
		ok "the machine has no nft table from inside"
	fi
	check "nft: the same in a network namespace of its own works inside" \
		in_cg $cg "unshare -n sh -c \"$nft_table && nft list ruleset | grep -q 10.99.1.2\""
else
	skip "nft" "no nf_tables in this kernel"
fi

check "detach" $L detach --cgroup $cg
rmdir $cg $ctl 2>/dev/null
