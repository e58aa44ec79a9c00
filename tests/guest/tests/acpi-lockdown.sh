#!/bin/sh
# Lockdown refuses the ACPI table upgrade from the initrd, which x86's
# setup_arch() asks it about, from the moment lockdown= sets its level
# (series patch 1). For the *-early kernels (config/early.config: the
# early lockdown LSM, ACPI): the initramfs carries an SSDT with OEM table
# id LABTABLE under kernel/firmware/acpi/ (tests/guest/acpi/mkssdt.py).
# Booted without lockdown=, the kernel installs it (the control); with
# lockdown=integrity, it must not.
. /lab/lib/lab.sh
tables=/sys/firmware/acpi/tables
if [ ! -d "$tables" ]; then
	not_ok "the kernel has ACPI ($tables)" "missing: boot a *-early kernel"
	exit 1
fi

# The OEM table id is 8 bytes at offset 16 of the table's header.
installed=no
for t in "$tables"/SSDT*; do
	[ -r "$t" ] || continue
	[ "$(dd if="$t" bs=1 skip=16 count=8 2>/dev/null)" = LABTABLE ] && installed=yes
done

level=$(cat /sys/kernel/security/lockdown 2>/dev/null)
case " $(cat /proc/cmdline) " in
*" lockdown=integrity "*)
	case $level in
	*"[integrity]"*) ok "the kernel is locked down: $level" ;;
	*) not_ok "the kernel is locked down to integrity" "lockdown says '$level'" ;;
	esac
	if [ $installed = no ]; then
		ok "under lockdown=integrity the initrd's ACPI table LABTABLE is not installed"
	else
		not_ok "under lockdown=integrity the initrd's ACPI table LABTABLE is not installed" \
			"it is in $tables: lockdown's hook was not live in setup_arch()"
	fi
	if dmesg | grep -q "kernel is locked down, ignoring table override"; then
		ok "the kernel says it ignored the table override"
	else
		not_ok "the kernel says it ignored the table override" "no such line in dmesg"
	fi
	;;
*)
	if [ $installed = yes ]; then
		ok "without lockdown= the initrd's ACPI table LABTABLE is installed (control)"
	else
		not_ok "without lockdown= the initrd's ACPI table LABTABLE is installed (control)" \
			"not in $tables: $(ls "$tables" | tr '\n' ' ')"
	fi
	;;
esac
