#!/usr/bin/env bash
# Turn a bench results folder into report.md and plots (gnuplot, PNG and
# SVG): instructions/op (median [min-max]) of the kernels and LSM sets
# with their ratios to nosec and stock; the equivalent rule set on every
# backend against no policy; BPF policies against rule count and cgroup
# count, inside and outside the confined cgroups, lsm_cgroup against
# global; LSM hook and indirect calls per operation (indirect/).
#
#   bench/report.sh DIR
#
# Reads DIR/raw.csv (bench/icount.sh; the older form without the series
# and policy columns too), DIR/indirect/indirect.csv, DIR/machine.txt and
# DIR/failures.txt when they are there. Each table says which mode
# measured it: icount (TCG instruction counting: instructions/op, exact
# and repeatable) or kvm (wall-clock ns/op).
set -euo pipefail
dir=${1:?usage: bench/report.sh DIR}
[ -s "$dir/raw.csv" ] || { echo "report: no $dir/raw.csv" >&2; exit 1; }

csv=$(mktemp)
trap 'rm -f "$csv"' EXIT
# series,variant,lsm,mitigations,mode,config,rules,cgroups,place,workload,iters,reps,min,median,max
awk -F, 'NR == 1 { old = $1 == "variant"; next }
	old {	# nosec has no LSM, whatever lsm= it was booted with
		print "kernels," $1 "," ($1 == "nosec" ? "-" : $2) "," $3 ",icount,none,-,-,-," $4 "," $5 "," $6 "," $7 "," $8 "," $9
		next
	}
	{ print }' "$dir/raw.csv" >"$csv"

# What every table's awk shares: the figures by key, the workloads in
# opbench's order, and formatting.
lib='
function k(s, v, l, m, c, r, g, p, w) {
	return s SUBSEP v SUBSEP l SUBSEP m SUBSEP c SUBSEP r SUBSEP g SUBSEP p SUBSEP w
}
function has(x) { return x in med }
function fig(x) { return has(x) ? sprintf("%s [%s-%s]", med[x], lo[x], hi[x]) : "" }
function ratio(a, b) { return (has(a) && has(b) && med[b] > 0) ? sprintf("%.3f", med[a] / med[b]) : "" }
function pct(a, b) { return (has(a) && has(b) && med[b] > 0) ? sprintf("%+.1f%%", (med[a] - med[b]) * 100 / med[b]) : "" }
function delta(a, b) { return (has(a) && has(b)) ? sprintf("%+.0f", med[a] - med[b]) : "" }
function unit(s) {
	return modes[s] == "kvm" ? "ns/op, KVM wall clock" : \
		modes[s] == "icount" ? "instructions/op, TCG instruction counting" : "mode " modes[s]
}
function row(n, cells,    i, s) {
	s = "|"
	for (i = 1; i <= n; i++) s = s " " cells[i] " |"
	print s
}
function header(n, cells,    i, s) {
	row(n, cells)
	s = "|"
	for (i = 1; i <= n; i++) s = s (i == 1 ? "---|" : "---:|")
	print s
}
BEGIN { FS = "," }
{
	x = k($1, $2, $3, $4, $6, $7, $8, $9, $10)
	med[x] = $14; lo[x] = $13; hi[x] = $15
	if (!(($1, $5) in modeseen)) {
		modeseen[$1, $5] = 1
		mo = ($1 in modes) ? modes[$1] "+" $5 : $5
		modes[$1] = mo
	}
	if (!($10 in wseen)) { wseen[$10] = 1; W[++nw] = $10 }
	series[$1] = 1
}
'
default_set="landlock+lockdown+yama+bpf"

{
	echo "# LSM and BPF policy cost per operation"
	echo
	[ -r "$dir/machine.txt" ] && sed 's/^/    /' "$dir/machine.txt" && echo
	cat <<'EOF'
opbench (bench/src/opbench.c) runs each workload ITERS times a
repetition, after a warm-up, and reports the median of the repetitions
with [min-max]. Under TCG instruction counting (`-icount
shift=0,align=off,sleep=off`) one guest nanosecond is one guest
instruction: the figures are instructions per operation, exact and the
same from run to run; the maximum is a repetition that took a timer
tick. They do not price an indirect call through a retpoline on real
hardware: `ACCEL=kvm bench/run.sh full` measures wall-clock ns/op with
the same plan, where KVM works (not on the development machine). Each
table names its mode. Boot lines: boots.txt; consoles: logs/.
EOF
	echo
	if [ -s "$dir/failures.txt" ]; then
		echo "**Boots that failed** (their figures are missing below):"
		echo
		sed 's/^/- /' "$dir/failures.txt"
		echo
	fi

	awk "$lib"'
	END {
		if (!("kernels" in series)) exit
		d = "'"$default_set"'"
		print "## Headlines"
		print ""
		print "Geometric means over the workloads measured (" unit("kernels") ")."
		print ""
		for (m = 1; m <= 2; m++) {
			mit = m == 1 ? "on" : "off"
			n = 0; ls = 0; ll = 0; lx = 0
			for (i = 1; i <= nw; i++) {
				a = k("kernels", "nosec", "-", mit, "none", "-", "-", "-", W[i])
				s = k("kernels", "stock", d, mit, "none", "-", "-", "-", W[i])
				l = k("kernels", "lsm", d, mit, "none", "-", "-", "-", W[i])
				if (!has(a) || !has(s) || !has(l)) continue
				n++; ls += log(med[s] / med[a]); ll += log(med[l] / med[a]); lx += log(med[l] / med[s])
			}
			if (n)
				printf "- no policy, `lsm=` the default set, mitigations %s, %d workloads: stock/nosec %.3f, lsm/nosec %.3f, lsm/stock %.4f (%+.2f%%)\n", \
					mit, n, exp(ls / n), exp(ll / n), exp(lx / n), (exp(lx / n) - 1) * 100
		}
		# open+close with the equivalent rule set, each backend
		w = "open_close"
		for (vi = 1; vi <= 2; vi++) {
			v = vi == 1 ? "stock" : "lsm"; s = ""
			nc = split("bpf-cgroup:inside:BPF-lsm_cgroup bpf-cgroup:outside:BPF-lsm_cgroup-outside bpf-global:inside:BPF-global bpf-global:outside:BPF-global-outside landlock:inside:Landlock yama:inside:Yama selinux:inside:SELinux apparmor:inside:AppArmor smack:inside:Smack tomoyo:inside:TOMOYO", C, " ")
			for (j = 1; j <= nc; j++) {
				split(C[j], cp, ":")
				l = cp[1] ~ /^bpf|landlock|yama/ ? d : cp[1]
				x = k("policies", v, l, "on", cp[1], cp[1] ~ /^bpf/ ? "eq" : "-", cp[1] ~ /^bpf/ ? "1" : "-", cp[2], w)
				b = k("kernels", v, l, "on", "none", "-", "-", "-", w)
				if (has(x) && has(b)) { nm = cp[3]; gsub(/-/, " ", nm); s = s (s == "" ? "" : ", ") nm " " delta(x, b) }
			}
			if (s != "") printf "- open+close on %s, what the equivalent rule set adds over no policy: %s\n", v, s
		}
		# the series: first and last point, inside and outside
		for (si = 1; si <= 2; si++) {
			S = si == 1 ? "rules" : "cgroups"
			if (!(S in series)) continue
			for (vi = 1; vi <= 2; vi++) for (bi = 1; bi <= 2; bi++) for (pi = 1; pi <= 2; pi++) {
				v = vi == 1 ? "stock" : "lsm"; bk = bi == 1 ? "bpf-cgroup" : "bpf-global"
				p = pi == 1 ? "inside" : "outside"
				lo_n = ""; hi_n = ""
				for (x in med) {
					split(x, f, SUBSEP)
					if (f[1] != S || f[2] != v || f[5] != bk || f[8] != p || f[9] != w) continue
					nn = S == "rules" ? f[6] + 0 : f[7] + 0
					if (lo_n == "" || nn < lo_n) { lo_n = nn; lo_x = x }
					if (hi_n == "" || nn > hi_n) { hi_n = nn; hi_x = x }
				}
				if (lo_n == "" || lo_n == hi_n) continue
				b = k("kernels", v, d, "on", "none", "-", "-", "-", w)
				printf "- open+close on %s, %s %s, %s %d -> %d: %s -> %s (%s -> %s over no policy)\n", \
					v, bk == "bpf-cgroup" ? "lsm_cgroup" : "global", p, S, lo_n, hi_n, \
					med[lo_x], med[hi_x], delta(lo_x, b), delta(hi_x, b)
			}
		}
		print ""
	}' "$csv"

	awk "$lib"'
	END {
		if (!("kernels" in series)) exit
		print "## Kernels and LSM sets, no policy"
		print ""
		print "nosec is stock with `CONFIG_SECURITY=n` (no hooks at all); stock is"
		print "Debian 6.1 (an indirect call per LSM per hook); lsm is stock with the"
		print "static-call series. Rows: the `lsm=` line booted. Mode: " unit("kernels") "."
		for (m = 1; m <= 2; m++) {
			mit = m == 1 ? "on" : "off"
			# the lsm= lines, in the order the plan booted them
			nl = 0
			for (x in med) {
				split(x, f, SUBSEP)
				if (f[1] == "kernels" && f[4] == mit && f[3] != "-" && !((mit, f[3]) in lseen)) {
					lseen[mit, f[3]] = 1; L[++nl] = f[3]
				}
			}
			if (!nl) continue
			# sort for a stable order: capability first, then by name
			for (i = 1; i <= nl; i++) for (j = i + 1; j <= nl; j++)
				if ((L[j] == "capability") || (L[i] != "capability" && L[j] < L[i])) { t = L[i]; L[i] = L[j]; L[j] = t }
			print ""
			print "### Mitigations " mit
			print ""
			split("lsm=|workload|nosec|stock|lsm|stock/nosec|lsm/nosec|lsm vs stock", h, "|")
			header(8, h)
			for (j = 1; j <= nl; j++) for (i = 1; i <= nw; i++) {
				a = k("kernels", "nosec", "-", mit, "none", "-", "-", "-", W[i])
				s = k("kernels", "stock", L[j], mit, "none", "-", "-", "-", W[i])
				l = k("kernels", "lsm", L[j], mit, "none", "-", "-", "-", W[i])
				if (!has(s) && !has(l)) continue
				c[1] = L[j]; gsub(/\+/, ",", c[1]); c[2] = W[i]
				c[3] = fig(a); c[4] = fig(s); c[5] = fig(l)
				c[6] = ratio(s, a); c[7] = ratio(l, a); c[8] = pct(l, s)
				row(8, c)
			}
			print ""
			print "Geometric means over the workloads:"
			print ""
			split("lsm=|stock/nosec|lsm/nosec|lsm/stock", h, "|")
			header(4, h)
			for (j = 1; j <= nl; j++) {
				n = 0; ls = 0; ll = 0; lx = 0; na = 0
				for (i = 1; i <= nw; i++) {
					a = k("kernels", "nosec", "-", mit, "none", "-", "-", "-", W[i])
					s = k("kernels", "stock", L[j], mit, "none", "-", "-", "-", W[i])
					l = k("kernels", "lsm", L[j], mit, "none", "-", "-", "-", W[i])
					if (!has(s) || !has(l)) continue
					n++; lx += log(med[l] / med[s])
					if (has(a)) { na++; ls += log(med[s] / med[a]); ll += log(med[l] / med[a]) }
				}
				if (!n) continue
				c[1] = L[j]; gsub(/\+/, ",", c[1])
				c[2] = na ? sprintf("%.3f", exp(ls / na)) : ""
				c[3] = na ? sprintf("%.3f", exp(ll / na)) : ""
				c[4] = sprintf("%.4f (%+.2f%%)", exp(lx / n), (exp(lx / n) - 1) * 100)
				row(4, c)
			}
		}
		print ""
		print "![no policy, relative to nosec](kernels.png)"
		print ""
	}' "$csv"

	awk "$lib"'
	function cfgname(c, p) {
		if (c == "bpf-cgroup") return "BPF lsm_cgroup " p
		if (c == "bpf-global") return "BPF global " p
		return name[c]
	}
	END {
		if (!("policies" in series)) exit
		print "## The equivalent rule set on every backend"
		print ""
		print "Deny reading /tmp/bench-secret, executing /tmp/bench-denied, connecting"
		print "to port 9 and ptrace (bench/policies/: what each backend cannot express"
		print "is in its README); no workload touches these objects, so the figures are"
		print "the cost of having the policy, and open+close is checked against it."
		print "BPF: `lsmctl apply` on one cgroup, measured inside it and outside"
		print "every confined cgroup. Mitigations on. Each configuration against the"
		print "same kernel and `lsm=` line without a policy (+instructions), and"
		print "against nosec (x). `lsm=` for BPF, Landlock and Yama: the default set"
		print "(" "'"${default_set//+/,}"'" "); for SELinux, AppArmor, Smack and TOMOYO:"
		print "that LSM alone (after capability). Mode: " unit("policies") "."
		split("landlock Landlock yama Yama selinux SELinux apparmor AppArmor smack Smack tomoyo TOMOYO", nm, " ")
		for (j = 1; j < 12; j += 2) name[nm[j]] = nm[j + 1]
		nc = split("bpf-cgroup:inside bpf-cgroup:outside bpf-global:inside bpf-global:outside landlock:inside yama:inside selinux:inside apparmor:inside smack:inside tomoyo:inside", C, " ")
		for (x in med) {
			split(x, f, SUBSEP)
			if (f[1] == "policies") { lsmof[f[5]] = f[3]; vseen[f[2]] = 1 }
		}
		for (vi = 1; vi <= 2; vi++) {
			v = vi == 1 ? "stock" : "lsm"
			if (!(v in vseen)) continue
			n = 0
			for (j = 1; j <= nc; j++) {
				split(C[j], cp, ":")
				if (cp[1] in lsmof) { D[++n] = C[j] }
			}
			print ""
			print "### " v ", instructions/op"
			print ""
			h[1] = "workload"; h[2] = "no policy"
			for (j = 1; j <= n; j++) {
				split(D[j], cp, ":")
				h[j + 2] = cfgname(cp[1], cp[2])
			}
			header(n + 2, h)
			for (i = 1; i <= nw; i++) {
				c[1] = W[i]
				c[2] = fig(k("kernels", v, "'"$default_set"'", "on", "none", "-", "-", "-", W[i]))
				any = 0
				for (j = 1; j <= n; j++) {
					split(D[j], cp, ":")
					r = cp[1] ~ /^bpf/ ? "eq" : "-"; g = cp[1] ~ /^bpf/ ? "1" : "-"
					x = k("policies", v, lsmof[cp[1]], "on", cp[1], r, g, cp[2], W[i])
					c[j + 2] = fig(x); any += has(x)
				}
				if (any) row(n + 2, c)
			}
			print ""
			print "### " v ", what the policy adds: +instructions over no policy (x nosec)"
			print ""
			h[1] = "workload"; h[2] = "no policy (x nosec)"
			header(n + 2, h)
			for (i = 1; i <= nw; i++) {
				a = k("kernels", "nosec", "-", "on", "none", "-", "-", "-", W[i])
				b = k("kernels", v, "'"$default_set"'", "on", "none", "-", "-", "-", W[i])
				c[1] = W[i]; c[2] = ratio(b, a) == "" ? "" : "x" ratio(b, a)
				any = 0
				for (j = 1; j <= n; j++) {
					split(D[j], cp, ":")
					r = cp[1] ~ /^bpf/ ? "eq" : "-"; g = cp[1] ~ /^bpf/ ? "1" : "-"
					x = k("policies", v, lsmof[cp[1]], "on", cp[1], r, g, cp[2], W[i])
					b = k("kernels", v, lsmof[cp[1]], "on", "none", "-", "-", "-", W[i])
					c[j + 2] = delta(x, b) (ratio(x, a) == "" ? "" : " (x" ratio(x, a) ")")
					any += has(x)
				}
				if (any) row(n + 2, c)
			}
		}
		if (("stock" in vseen) && ("lsm" in vseen)) {
			print ""
			print "### lsm vs stock with the same policy"
			print ""
			h[1] = "workload"; h[2] = "no policy"
			header(n + 2, h)
			for (i = 1; i <= nw; i++) {
				c[1] = W[i]
				c[2] = pct(k("kernels", "lsm", "'"$default_set"'", "on", "none", "-", "-", "-", W[i]),
					   k("kernels", "stock", "'"$default_set"'", "on", "none", "-", "-", "-", W[i]))
				any = 0
				for (j = 1; j <= n; j++) {
					split(D[j], cp, ":")
					r = cp[1] ~ /^bpf/ ? "eq" : "-"; g = cp[1] ~ /^bpf/ ? "1" : "-"
					c[j + 2] = pct(k("policies", "lsm", lsmof[cp[1]], "on", cp[1], r, g, cp[2], W[i]),
						       k("policies", "stock", lsmof[cp[1]], "on", cp[1], r, g, cp[2], W[i]))
					any += c[j + 2] != ""
				}
				if (any) row(n + 2, c)
			}
		}
		print ""
		print "![stock: the equivalent rule set, relative to nosec](policies-stock.png)"
		print ""
		print "![lsm: the equivalent rule set, relative to nosec](policies-lsm.png)"
		print ""
		# lsm_cgroup against global, from the same boots
		print "### lsm_cgroup against global"
		print ""
		print "What the BPF policy adds over no policy on each backend, inside the"
		print "confined cgroup and outside every confined cgroup (instructions/op)."
		print ""
		split("kernel|workload|lsm_cgroup inside|global inside|global/lsm_cgroup inside|lsm_cgroup outside|global outside", h, "|")
		header(7, h)
		for (vi = 1; vi <= 2; vi++) {
			v = vi == 1 ? "stock" : "lsm"
			for (i = 1; i <= nw; i++) {
				b = k("kernels", v, "'"$default_set"'", "on", "none", "-", "-", "-", W[i])
				ci = k("policies", v, "'"$default_set"'", "on", "bpf-cgroup", "eq", "1", "inside", W[i])
				gi = k("policies", v, "'"$default_set"'", "on", "bpf-global", "eq", "1", "inside", W[i])
				co = k("policies", v, "'"$default_set"'", "on", "bpf-cgroup", "eq", "1", "outside", W[i])
				go = k("policies", v, "'"$default_set"'", "on", "bpf-global", "eq", "1", "outside", W[i])
				if (!has(ci) && !has(gi)) continue
				c[1] = v; c[2] = W[i]; c[3] = delta(ci, b); c[4] = delta(gi, b)
				# a ratio of costs only where both are well above the noise
				c[5] = (has(ci) && has(gi) && has(b) && med[ci] - med[b] >= 100 && med[gi] - med[b] >= 100) ? \
					sprintf("%.2f", (med[gi] - med[b]) / (med[ci] - med[b])) : ""
				c[6] = delta(co, b); c[7] = delta(go, b)
				row(7, c)
			}
		}
		print ""
	}' "$csv"

	for s in rules cgroups; do
		awk -v S=$s "$lib"'
		END {
			if (!(S in series)) exit
			for (x in med) {
				split(x, f, SUBSEP)
				if (f[1] != S) continue
				p = S == "rules" ? f[6] : f[7]
				if (!(p in pseen)) { pseen[p] = 1; P[++np] = p + 0 }
				cols[f[2] SUBSEP f[5] SUBSEP f[8]] = 1
			}
			for (i = 1; i <= np; i++) for (j = i + 1; j <= np; j++) if (P[j] < P[i]) { t = P[i]; P[i] = P[j]; P[j] = t }
			nc = 0
			for (vi = 1; vi <= 2; vi++) for (bi = 1; bi <= 2; bi++) for (pi = 1; pi <= 2; pi++) {
				v = vi == 1 ? "stock" : "lsm"; b = bi == 1 ? "bpf-cgroup" : "bpf-global"
				p = pi == 1 ? "inside" : "outside"
				if ((v SUBSEP b SUBSEP p) in cols) { CV[++nc] = v; CB[nc] = b; CP[nc] = p }
			}
			if (S == "rules") {
				print "## BPF: cost against the number of rules"
				print ""
				print "One file rule (reading the secret: `file_open` only) and N-1 filler"
				print "rules that match nothing (`lsmctl apply --filler`), on one cgroup."
			} else {
				print "## BPF: cost against the number of confined cgroups"
				print ""
				print "The equivalent rule set applied to N sibling cgroups; measured in"
				print "the first and in a cgroup outside them all. The lsm_cgroup backend"
				print "stops at the count bench/run.sh allows it (CGROUP_BACKEND_MAX):"
				print "each of its policies has its own maps, about 36 MiB of kernel memory"
				print "(bench/README.md)."
			}
			print "Each cell: median, then +instructions over the same kernel without a"
			print "policy. Mitigations on, lsm=" "'"${default_set//+/,}"'" ". Mode: " unit(S) "."
			for (i = 1; i <= nw; i++) {
				print ""
				print "### " W[i]
				print ""
				h[1] = S
				for (j = 1; j <= nc; j++) h[j + 1] = CV[j] " " (CB[j] == "bpf-cgroup" ? "lsm_cgroup" : "global") " " CP[j]
				header(nc + 1, h)
				for (r = 1; r <= np; r++) {
					c[1] = P[r]; any = 0
					for (j = 1; j <= nc; j++) {
						x = S == "rules" ? k(S, CV[j], "'"$default_set"'", "on", CB[j], P[r], "1", CP[j], W[i]) : \
							k(S, CV[j], "'"$default_set"'", "on", CB[j], "eq", P[r], CP[j], W[i])
						b = k("kernels", CV[j], "'"$default_set"'", "on", "none", "-", "-", "-", W[i])
						c[j + 1] = has(x) ? med[x] (has(b) ? " (" delta(x, b) ")" : "") : ""
						any += has(x)
					}
					if (any) row(nc + 1, c)
				}
			}
			print ""
			print "![" S "](" S ".png)"
			print ""
		}' "$csv"
	done

	awk "$lib"'
	END {
		print "## Reference: the hand-made probe"
		print ""
		print "Before this harness, a probe on stock 6.1 (`lsm=landlock,yama,bpf`,"
		print "one `file_open` program doing a hash lookup, open+close of another"
		print "file) counted these instructions/op (TCG instruction counting). Next"
		print "to them, the harness'"'"'s counterpart: the rule-count series'"'"' one-rule"
		print "policy (`file_open` only) on stock, `lsm=` the default set, open+close"
		print "of /tmp/opbench.file (mode: " unit("rules") ")."
		print ""
		split("configuration|probe|+ over no program|harness|+ over no policy", h, "|")
		header(5, h)
		d = "'"$default_set"'"
		b = k("kernels", "stock", d, "on", "none", "-", "-", "-", "open_close")
		n = split("no program:4163::: lsm_cgroup, inside the cgroup:4686:bpf-cgroup:inside global, inside the cgroup:4753:bpf-global:inside lsm_cgroup, outside:4352:bpf-cgroup:outside global, outside:4429:bpf-global:outside", R, " ")
		# the labels hold spaces: rejoin the fields split on them
		m = 0
		for (i = 1; i <= n; i++) { cur = cur (cur == "" ? "" : " ") R[i]; if (R[i] ~ /:/) { L[++m] = cur; cur = "" } }
		for (i = 1; i <= m; i++) {
			split(L[i], f, ":")
			c[1] = f[1]; c[2] = f[2]; c[3] = i == 1 ? "" : sprintf("%+d", f[2] - 4163)
			x = i == 1 ? b : k("rules", "stock", d, "on", f[3], "1", "1", f[4], "open_close")
			c[4] = has(x) ? med[x] : ""; c[5] = i == 1 ? "" : delta(x, b)
			row(5, c)
		}
		print ""
	}' "$csv"

	ind=$dir/indirect/indirect.csv
	if [ -s "$ind" ]; then
		awk -F, '
		NR == 1 { next }
		{
			if (!($1 in sseen)) { sseen[$1] = 1; S[++ns] = $1 }
			if (!($2 in wseen)) { wseen[$2] = 1; W[++nw] = $2 }
			sec[$1, $2] = sprintf("%.1f", $3); hc[$1, $2] = sprintf("%.1f", $4)
			ind[$1, $2] = sprintf("%.1f", $5)
		}
		END {
			print "## LSM hook calls and indirect calls per operation (stock)"
			print ""
			print "Counted with kprobe events on every `security_*()` function of stock"
			print "6.1 (TCG without instruction counting: these are call counts, not"
			print "time; bench/indirect.sh). Each cell: LSM hook calls that reach at"
			print "least one LSM / indirect calls to LSMs, per operation. On stock each"
			print "LSM on a hook is one indirect call (through a retpoline thunk with"
			print "mitigations on); the series makes every one of them a direct call"
			print "(a static call), so the second figure is what it removes. The LSMs"
			print "on each hook come from the lsm kernel'"'"'s /sys/kernel/security/lsm_slots"
			print "booted with the same `lsm=` line (BPF LSM counts on every hook: stock"
			print "calls its stubs whether or not a program is attached); a hook that"
			print "stops at the first LSM to answer makes the figure an upper bound."
			print ""
			s = "| workload | security_*() calls |"; t = "|---|---:|"
			for (i = 1; i <= ns; i++) { l = S[i]; gsub(/\+/, ",", l); s = s " " l " |"; t = t "---:|" }
			print s; print t
			for (j = 1; j <= nw; j++) {
				s = "| " W[j] " | " sec[S[1], W[j]] " |"
				for (i = 1; i <= ns; i++)
					s = s (((S[i], W[j]) in ind) ? " " hc[S[i], W[j]] " / " ind[S[i], W[j]] " |" : " |")
				print s
			}
			print ""
		}' "$ind"
	fi
} >"$dir/report.md"

# Plots: bar groups per workload, one bar per configuration, relative
# to nosec; and the two series, median against the count.
# Twelve distinct colours (gnuplot's default cycles after eight).
palette=$(n=0; for c in 1f77b4 ff7f0e 2ca02c d62728 9467bd 8c564b e377c2 7f7f7f bcbd22 17becf 000000 aec7e8; do
	n=$((n + 1)); echo "set linetype $n lc rgb \"#$c\" lw 1.5 pt $n"; done)

# Drop the columns of a tab-separated table that hold no figure.
drop_empty() {
	awk -F'\t' '{ for (i = 1; i <= NF; i++) { c[NR, i] = $i; if (NR > 1 && $i != "NaN") used[i] = 1 } n = NF }
		END {
			for (r = 1; r <= NR; r++) {
				s = c[r, 1]
				for (i = 2; i <= n; i++) if (i in used) s = s "\t" c[r, i]
				print s
			}
		}' "$1" >"$1.tmp" && mv "$1.tmp" "$1"
}
plot_bars() { # NAME TITLE DATFILE YMIN
	local n
	drop_empty "$3"
	n=$(head -1 "$3" | awk -F'\t' '{ print NF - 1 }')
	n=${n:-0}
	[ "$n" -ge 1 ] && [ "$(wc -l <"$3")" -gt 1 ] || return 0
	for out in png:pngcairo svg:svg; do
		gnuplot <<GP
set terminal ${out#*:} size 1400,650 noenhanced
set output "$dir/$1.${out%%:*}"
set title "$2"
$palette
set datafile separator "\t"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key outside right top
set ylabel "relative to nosec (median)"
set xtics rotate by -30
set grid ytics
set yrange [$4:*]
plot for [i=2:$((n + 1))] "$3" using i:xtic(1) title columnheader(i)
GP
	done
}
plot_series() { # NAME TITLE XLABEL DATFILE
	local n
	drop_empty "$4"
	n=$(head -1 "$4" | awk -F'\t' '{ print NF - 1 }')
	n=${n:-0}
	[ "$n" -ge 1 ] && [ "$(wc -l <"$4")" -gt 2 ] || return 0
	for out in png:pngcairo svg:svg; do
		gnuplot <<GP
set terminal ${out#*:} size 1000,600 noenhanced
set output "$dir/$1.${out%%:*}"
set title "$2"
$palette
set datafile separator "\t"
set logscale x
set key outside right top
set xlabel "$3"
set ylabel "open+close, instructions/op (median)"
set grid
set datafile missing "NaN"
plot for [i=2:$((n + 1))] "$4" using 1:i with linespoints title columnheader(i)
GP
	done
}

tmp=$(mktemp -d)
trap 'rm -f "$csv"; rm -rf "$tmp"' EXIT
awk "$lib"'
END {
	d = "'"$default_set"'"
	printf "workload\tstock mitigations on\tlsm mitigations on\tstock mitigations off\tlsm mitigations off\n"
	for (i = 1; i <= nw; i++) {
		printf "%s", W[i]
		for (j = 1; j <= 4; j++) {
			v = j % 2 ? "stock" : "lsm"; m = j <= 2 ? "on" : "off"
			a = k("kernels", "nosec", "-", m, "none", "-", "-", "-", W[i])
			x = k("kernels", v, d, m, "none", "-", "-", "-", W[i])
			printf "\t%s", ratio(x, a) == "" ? "NaN" : ratio(x, a)
		}
		printf "\n"
	}
}' "$csv" >"$tmp/kernels.dat"
plot_bars kernels "No policy, lsm=${default_set//+/,}: instructions/op relative to nosec" "$tmp/kernels.dat" 0.95
for v in stock lsm; do
	awk -v V=$v "$lib"'
	END {
		if (!("policies" in series)) exit
		nc = split("none:- bpf-cgroup:inside bpf-cgroup:outside bpf-global:inside bpf-global:outside landlock:inside yama:inside selinux:inside apparmor:inside smack:inside tomoyo:inside", C, " ")
		for (x in med) { split(x, f, SUBSEP); if (f[1] == "policies" && f[2] == V) lsmof[f[5]] = f[3] }
		lsmof["none"] = "'"$default_set"'"
		printf "workload"
		for (j = 1; j <= nc; j++) {
			split(C[j], cp, ":")
			if (cp[1] in lsmof) printf "\t%s", cp[1] == "none" ? "no policy" : cp[1] (cp[1] ~ /^bpf/ ? " " cp[2] : "")
		}
		printf "\n"
		for (i = 1; i <= nw; i++) {
			printf "%s", W[i]
			a = k("kernels", "nosec", "-", "on", "none", "-", "-", "-", W[i])
			for (j = 1; j <= nc; j++) {
				split(C[j], cp, ":")
				if (!(cp[1] in lsmof)) continue
				if (cp[1] == "none") x = k("kernels", V, lsmof["none"], "on", "none", "-", "-", "-", W[i])
				else x = k("policies", V, lsmof[cp[1]], "on", cp[1], cp[1] ~ /^bpf/ ? "eq" : "-", \
					   cp[1] ~ /^bpf/ ? "1" : "-", cp[2], W[i])
				printf "\t%s", ratio(x, a) == "" ? "NaN" : ratio(x, a)
			}
			printf "\n"
		}
	}' "$csv" >"$tmp/policies-$v.dat"
	plot_bars "policies-$v" "$v, mitigations on: the equivalent rule set, instructions/op relative to nosec" \
		"$tmp/policies-$v.dat" 0.8
done
for s in rules cgroups; do
	awk -v S=$s "$lib"'
	END {
		for (x in med) {
			split(x, f, SUBSEP)
			if (f[1] != S || f[9] != "open_close") continue
			p = S == "rules" ? f[6] : f[7]
			if (!(p in pseen)) { pseen[p] = 1; P[++np] = p + 0 }
			c = f[2] " " (f[5] == "bpf-cgroup" ? "lsm_cgroup" : "global") " " f[8]
			if (!(c in cseen)) { cseen[c] = 1; C[++nc] = c }
			val[p + 0, c] = med[x]
		}
		for (i = 1; i <= np; i++) for (j = i + 1; j <= np; j++) if (P[j] < P[i]) { t = P[i]; P[i] = P[j]; P[j] = t }
		for (i = 1; i <= nc; i++) for (j = i + 1; j <= nc; j++) if (C[j] < C[i]) { t = C[i]; C[i] = C[j]; C[j] = t }
		# and each kernel without a policy, for reference
		for (vi = 1; vi <= 2; vi++) {
			v = vi == 1 ? "stock" : "lsm"
			x = k("kernels", v, "'"$default_set"'", "on", "none", "-", "-", "-", "open_close")
			if (has(x) && nc) { C[++nc] = v " no policy"; for (i = 1; i <= np; i++) val[P[i], C[nc]] = med[x] }
		}
		printf "%s", S
		for (j = 1; j <= nc; j++) printf "\t%s", C[j]
		printf "\n"
		for (i = 1; i <= np; i++) {
			printf "%d", P[i]
			for (j = 1; j <= nc; j++) printf "\t%s", ((P[i], C[j]) in val) ? val[P[i], C[j]] : "NaN"
			printf "\n"
		}
	}' "$csv" >"$tmp/$s.dat"
done
plot_series rules "BPF policy: open+close against the number of rules" "rules (1 real + fillers)" "$tmp/rules.dat"
plot_series cgroups "BPF policy: open+close against the number of confined cgroups" \
	"confined sibling cgroups" "$tmp/cgroups.dat"
echo "report: $dir/report.md ($(ls "$dir"/*.png 2>/dev/null | wc -l) plots)" >&2
