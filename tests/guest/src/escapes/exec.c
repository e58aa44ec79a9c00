// SPDX-License-Identifier: GPL-2.0
/* Escapes: running the denied programs some other way, exec's own opens, and the exec allow-list. */
#define _GNU_SOURCE
#include <sys/mman.h>

#include "escapes.h"

int p_exec(const void *path)
{
	return exec_verdict(path, -1);
}

static int p_exec_symlink(const void *path)
{
	return alias_probe(path, NULL, ALIAS_SYMLINK, p_exec);
}

static int p_exec_hardlink(const void *path)
{
	return alias_probe(path, NULL, ALIAS_HARDLINK, p_exec);
}

static int p_exec_renamed(const void *path)
{
	return alias_probe(path, NULL, ALIAS_RENAME, p_exec);
}

/* execveat(O_PATH fd, "", AT_EMPTY_PATH) */
static int p_execveat_opath(const void *path)
{
	int fd = open(path, O_PATH | O_CLOEXEC), err;

	if (fd < 0)
		return errno;
	err = exec_verdict(NULL, fd);
	close(fd);
	return err;
}

/* execve("/proc/self/fd/N") of an O_PATH fd */
static int p_exec_proc_fd(const void *path)
{
	return reopen_probe(path, O_PATH, p_exec);
}

/* Copy the denied binary to @dest (a new inode), run the copy. */
static int p_exec_copy(const void *dest)
{
	char name[BLEN];
	int err;

	if (dest)
		snprintf(name, sizeof(name), "%s", (const char *)dest);
	else
		tmpname(name, sizeof(name), "exe-copy");
	err = copy_file(f.denied, name, 0755);
	if (err)
		return err;
	err = p_exec(name);
	unlink(name);
	return err;
}

/* The denied binary's bytes in a memfd, run with execveat (fexecve). */
static int p_exec_memfd(const void *arg)
{
	int fd = memfd_create("esc-memfd", MFD_CLOEXEC), err;

	(void)arg;
	if (fd < 0)
		return errno;
	err = fill_fd(fd, f.denied) ?: exec_verdict(NULL, fd);
	close(fd);
	return err;
}

/* The dynamic loader, run by its own name, loading the denied bpftool. */
static int p_ldso(const void *arg)
{
	char *const argv[] = { LDSO, f.denied_dyn, "version", NULL };
	char out[2048];
	int status;

	(void)arg;
	status = run_prog(LDSO, -1, argv, out, sizeof(out));
	return prog_verdict(status, out, "libbpf");
}

struct script {
	const char *path;
	const char *marker;
};

/* The copy of bpftool whose PT_INTERP names the exec-denied copy of ld.so. */
static int p_exec_interp(const void *arg)
{
	char *const argv[] = { "interp-dyn", "version", NULL };
	char out[2048];
	int status;

	(void)arg;
	status = run_prog(f.interp_dyn, -1, argv, out, sizeof(out));
	return prog_verdict(status, out, "libbpf");
}

/* sh SCRIPT: the shell opens and reads it, no execve of the script. */
static int p_sh_script(const void *arg)
{
	const struct script *s = arg;
	char *const argv[] = { "sh", (char *)s->path, NULL };
	char out[1024];
	int status = run_prog("/bin/sh", -1, argv, out, sizeof(out));

	return prog_verdict(status, out, s->marker);
}

/* execve(SCRIPT): the kernel runs its #! interpreter, which opens it. */
static int p_exec_script(const void *arg)
{
	const struct script *s = arg;
	char *const argv[] = { (char *)s->path, NULL };
	char out[1024];
	int status = run_prog(s->path, -1, argv, out, sizeof(out));

	return prog_verdict(status, out, s->marker);
}

/* Open @path for reading and read a byte, whatever the file holds. */
static int p_read_any(const void *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	char c;

	if (fd < 0)
		return errno;
	if (read(fd, &c, 1) != 1)
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

void test_exec(void)
{
	static struct script denied_sh, vault_sh;
	const char *m = cg.main;

	denied_sh = (struct script){ f.denied_sh, RAN_MARK "-script" };
	vault_sh = (struct script){ f.vault_script, MARK "script-ran" };

	tap_note("--- exec: %s (busybox), %s (bpftool), %s", f.denied, f.denied_dyn,
		 f.denied_sh);
	attempt(m, HOLD, true, "execve the denied binary", "bprm_check_security",
		p_exec, f.denied);
	attempt(m, HOLD, true, "execve it through a symlink made inside", "same inode",
		p_exec_symlink, f.denied);
	attempt(m, HOLD, true, "execve it through a hard link made inside", "same inode",
		p_exec_hardlink, f.denied);
	attempt(m, HOLD, true, "rename it, execve the new name", "same inode",
		p_exec_renamed, f.denied);
	attempt(m, HOLD, true, "execveat(O_PATH fd, \"\", AT_EMPTY_PATH)", "same inode",
		p_execveat_opath, f.denied);
	attempt(m, HOLD, true, "execve(\"/proc/self/fd/N\") of an O_PATH fd", "same inode",
		p_exec_proc_fd, f.denied);
	attempt(m, HOLD, true, "execve the denied script", "bprm_check_security on the script",
		p_exec_script, &denied_sh);
	attempt(m, HOLD, true, "execve a script in the secret dir (its interpreter reads it)",
		"the interpreter's open is a read: file_open, subtree rule",
		p_exec_script, &vault_sh);
	attempt(m, HOLD, true, "sh SCRIPT for a script in the secret dir",
		"sh opens it for reading: file_open, subtree rule", p_sh_script, &vault_sh);

	attempt(m, DOC, false, "run a copy of the denied binary",
		"rules follow inodes: a copy is a new inode (POLICY.md: paths by name); "
		"see the exec allow-list below", p_exec_copy, NULL);
	attempt(m, DOC, false, "memfd_create + write the binary + execveat(AT_EMPTY_PATH)",
		"a memfd is a new inode, like a copy; see the exec allow-list below",
		p_exec_memfd, NULL);
	attempt(m, DOC, false, "sh SCRIPT for the denied script",
		"exec rules are checked at execve (bprm_check_security); sh opens the script "
		"for reading, which no read rule denies", p_sh_script, &denied_sh);
	attempt(m, DOC, false, LDSO " DENIED (a dynamic binary run by its loader)",
		"the loader opens and mmaps the file: no execve of it, as with sh SCRIPT; "
		"see the exec allow-list below", p_ldso, NULL);
}

/* exec's own opens (issue #12, 12): the ELF interpreter, and not a read. */
void test_exec_opens(void)
{
	const char *m = cg.main;
	int ctl, rc;

	tap_note("--- exec's opens: %s names %s (exec denied) as its PT_INTERP; %s is read "
		 "denied and exec allowed", f.interp_dyn, f.ldso_copy, f.read_denied);
	attempt(m, HOLD, true, "execve a dynamic binary whose ELF interpreter (PT_INTERP) is "
		"exec-denied", "file_open: exec's open of the interpreter is an exec "
		"(bprm_check_security never sees the interpreter)", p_exec_interp, NULL);

	ctl = probe_pid(cg.ctl, p_exec, f.read_denied, NULL);
	tap_result(ctl == 0, "control: the read-denied binary runs in %s (got %s)", cg.ctl,
		   errname(ctl));
	rc = probe_pid(m, p_exec, f.read_denied, NULL);
	tap_result(rc == 0, "an exec-allowed, read-denied binary runs inside %s: its exec's own "
		   "open is not a read (got %s)", m, errname(rc));
	record("(info) execve an exec-allowed, read-denied binary (it must run)",
	       rc == 0 ? "ran, as it should" : "FAILED: refused", "file_open: __FMODE_EXEC in f_flags");
	attempt(m, HOLD, true, "read the exec-allowed, read-denied binary",
		"file_open, exact read rule", p_read_any, f.read_denied);
}

void test_allow_list(void)
{
	static struct script denied_sh;
	const char *l = cg.list;
	int rc;

	denied_sh = (struct script){ f.denied_sh, RAN_MARK "-script" };
	tap_note("--- the exec allow-list in %s: default deny, exec /bin/** and /lab/** allowed",
		 l);
	rc = probe_pid(l, p_exec, BUSYBOX, NULL);
	tap_result(rc == 0, "control: the allow-list still runs /bin/busybox (got %s)",
		   errname(rc));
	attempt(l, HOLD, true, "allow-list: run a copy of the denied binary",
		"default deny for exec", p_exec_copy, NULL);
	attempt(l, HOLD, true, "allow-list: memfd_create + execveat(AT_EMPTY_PATH)",
		"default deny for exec", p_exec_memfd, NULL);
	attempt(l, HOLD, true, "allow-list: " LDSO " DENIED",
		"the loader itself is not on the list", p_ldso, NULL);
	attempt(l, HOLD, true, "allow-list: execve the denied script", "default deny",
		p_exec_script, &denied_sh);
	attempt(l, DOC, false, "allow-list: sh SCRIPT for the denied script",
		"/bin/sh is allowed, and reading the script is not an exec",
		p_sh_script, &denied_sh);
	attempt(l, DOC, false, "allow-list: copy the denied binary into /bin, run it",
		"a subtree rule covers files created in it later (POLICY.md: paths by name); "
		"root can write an allow-listed directory; a files create deny on it would "
		"stop that (6 more hooks)", p_exec_copy, f.bin_copy);
	unlink(f.bin_copy);
}
