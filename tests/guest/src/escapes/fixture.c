// SPDX-License-Identifier: GPL-2.0
/* Escapes: the files, cgroups, policies and helpers every surface uses; main. */
#define _GNU_SOURCE
#include <elf.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <time.h>

#include "escapes.h"

/* FIBMAP and FIGETBSZ from linux/fs.h, which sys/mount.h does not mix with */
#define LAB_FIBMAP	_IO(0x00, 1)
#define LAB_FIGETBSZ	_IO(0x00, 2)

struct escapes_cgroups cg;
struct escapes_files f;
struct policy_file pol_main, pol_list, pol_v4, pol_more;
bool on_disk;
off_t raw_off = -1;
pid_t outsider;
int srv_sock = -1;
int l_tcp4 = -1, l_tcp6 = -1, l_udp4 = -1, l_udp6 = -1;
static char yama_saved[8];

static void make_names(void)
{
	const char *d = f.dir;

	snprintf(cg.main, sizeof(cg.main), "esc-%s", lab_backend);
	snprintf(cg.list, sizeof(cg.list), "esc-%s-list", lab_backend);
	snprintf(cg.v4, sizeof(cg.v4), "esc-%s-v4", lab_backend);
	snprintf(cg.ctl, sizeof(cg.ctl), "esc-%s-ctl", lab_backend);
	snprintf(cg.more, sizeof(cg.more), "esc-%s-more", lab_backend);

	snprintf(f.mnt, sizeof(f.mnt), "/tmp/esc-%s", lab_backend);
	snprintf(f.dir, sizeof(f.dir), "%s/esc-%s", f.mnt, lab_backend);
	snprintf(f.m2, sizeof(f.m2), "/tmp/esc-%s-m2", lab_backend);
	snprintf(f.secret, sizeof(f.secret), "%s/secret", d);
	snprintf(f.secret_m2, sizeof(f.secret_m2), "%s/esc-%s/secret", f.m2, lab_backend);
	snprintf(f.vault, sizeof(f.vault), "%s/vault", d);
	snprintf(f.vault_file, sizeof(f.vault_file), "%s/vault/file", d);
	snprintf(f.vault_sub, sizeof(f.vault_sub), "%s/vault/sub", d);
	snprintf(f.vault_deep, sizeof(f.vault_deep), "%s/vault/sub/deep", d);
	snprintf(f.vault_script, sizeof(f.vault_script), "%s/vault/script.sh", d);
	snprintf(f.vault_movable, sizeof(f.vault_movable), "%s/vault/movable", d);
	snprintf(f.vault_linkable, sizeof(f.vault_linkable), "%s/vault/linkable", d);
	snprintf(f.bin, sizeof(f.bin), "%s/bin", d);
	snprintf(f.denied, sizeof(f.denied), "%s/bin/denied", d);
	snprintf(f.denied_dyn, sizeof(f.denied_dyn), "%s/bin/denied-dyn", d);
	snprintf(f.denied_sh, sizeof(f.denied_sh), "%s/bin/denied.sh", d);
	snprintf(f.work, sizeof(f.work), "%s/work", d);
	snprintf(f.hl_before, sizeof(f.hl_before), "%s/work/hardlink-before", d);
	snprintf(f.bind_dir, sizeof(f.bind_dir), "%s/work/bind-dir", d);
	snprintf(f.bind_file, sizeof(f.bind_file), "%s/work/bind-file", d);
	snprintf(f.policies, sizeof(f.policies), "%s/policies", d);
	snprintf(f.bin_copy, sizeof(f.bin_copy), "/bin/esc-%s-copy", lab_backend);
	snprintf(f.vault_handle, sizeof(f.vault_handle), "%s/vault/handle", d);
	/* at most 27 characters, the length of the PT_INTERP it replaces */
	snprintf(f.ldso_copy, sizeof(f.ldso_copy), "%s/ld", f.mnt);
	snprintf(f.interp_dyn, sizeof(f.interp_dyn), "%s/bin/interp-dyn", d);
	snprintf(f.read_denied, sizeof(f.read_denied), "%s/bin/read-denied", d);
	snprintf(f.nocreate, sizeof(f.nocreate), "%s/nocreate", d);
	snprintf(f.wprot, sizeof(f.wprot), "%s/wprot", d);
	snprintf(f.rwprot, sizeof(f.rwprot), "%s/rwprot", d);
}

/*
 * Make @path's PT_INTERP name @interp (NUL-padded; no longer than the
 * original): the kernel then loads @interp as the program's ELF
 * interpreter. 0 or an errno.
 */
static int patch_interp(const char *path, const char *interp)
{
	size_t len, want = strlen(interp) + 1;
	unsigned char *buf = slurp(path, &len);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	Elf64_Phdr *ph;
	int i, err = ENOEXEC;

	if (!buf)
		return errno ? errno : EIO;
	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phoff + (size_t)eh->e_phnum * sizeof(*ph) > len)
		goto out;
	for (i = 0; i < eh->e_phnum; i++) {
		ph = (Elf64_Phdr *)(buf + eh->e_phoff) + i;
		if (ph->p_type != PT_INTERP)
			continue;
		if (ph->p_offset + ph->p_filesz > len || want > ph->p_filesz) {
			err = ENAMETOOLONG;
			goto out;
		}
		memset(buf + ph->p_offset, 0, ph->p_filesz);
		memcpy(buf + ph->p_offset, interp, want);
		err = put_file(path, buf, len, 0755);
		goto out;
	}
out:
	free(buf);
	return err;
}

/* A secret ABYSS_DEPTH directories below the secret dir: 0 or an errno. */
static int make_abyss(void)
{
	size_t n = snprintf(f.abyss, sizeof(f.abyss), "%s/abyss", f.vault);
	char text[128];
	int i;

	if (mkdir(f.abyss, 0755))
		return errno;
	for (i = 1; i < ABYSS_DEPTH; i++) {
		n += snprintf(f.abyss + n, sizeof(f.abyss) - n, "/d");
		if (n >= sizeof(f.abyss))
			return ENAMETOOLONG;
		if (mkdir(f.abyss, 0755))
			return errno;
	}
	n += snprintf(f.abyss + n, sizeof(f.abyss) - n, "/secret");
	if (n >= sizeof(f.abyss))
		return ENAMETOOLONG;
	snprintf(text, sizeof(text), MARK "%s:abyss\n", lab_backend);
	return put_str(f.abyss, text, 0644);
}

/* The scratch disk at f.mnt, or a tmpfs; then the tree below it. */
static int prepare_files(void)
{
	const char *dirs[] = { f.dir, f.vault, f.vault_sub, f.bin, f.work, f.bind_dir,
			       f.policies, f.nocreate };
	char text[128];
	size_t i;
	int err, fd, blk = 0, bsz = 0;

	if (mkdir(f.mnt, 0755) && errno != EEXIST)
		return errno;
	if (mkdir(f.m2, 0755) && errno != EEXIST)
		return errno;
	on_disk = !access(SCRATCH_DISK, F_OK) && !mount(SCRATCH_DISK, f.mnt, "ext4", 0, NULL);
	if (!on_disk && mount("esc-tmpfs", f.mnt, "tmpfs", 0, "mode=0755"))
		return errno;
	tap_note("files on %s", on_disk ? SCRATCH_DISK " (ext4)" : "a tmpfs");
	rm_rf(f.dir);	/* a run before that died */
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		if (mkdir(dirs[i], 0755))
			return errno;

#define SECRET(path, name) \
	(snprintf(text, sizeof(text), MARK "%s:%s\n", lab_backend, name), put_str(path, text, 0644))
	err = SECRET(f.secret, "file") ?: SECRET(f.vault_file, "vault") ?:
	      SECRET(f.vault_deep, "deep") ?: SECRET(f.vault_movable, "movable") ?:
	      SECRET(f.vault_linkable, "linkable") ?: SECRET(f.vault_handle, "handle") ?:
	      SECRET(f.wprot, "write-protected") ?: SECRET(f.rwprot, "rw-protected") ?:
	      put_str(f.vault_script, "#!/bin/sh\necho " MARK "script-ran\n", 0755) ?:
	      put_str(f.denied_sh, "#!/bin/sh\necho " RAN_MARK "-script\n", 0755) ?:
	      put_str(f.bind_file, "", 0644) ?:
	      copy_file(BUSYBOX, f.denied, 0755) ?: copy_file(BPFTOOL, f.denied_dyn, 0755) ?:
	      copy_file(BUSYBOX, f.read_denied, 0755) ?: copy_file(LDSO, f.ldso_copy, 0755) ?:
	      copy_file(BPFTOOL, f.interp_dyn, 0755) ?: patch_interp(f.interp_dyn, f.ldso_copy) ?:
	      make_abyss();
#undef SECRET
	if (err)
		return err;
	/* a hard link made outside, before the policy */
	if (link(f.secret, f.hl_before))
		return errno;
	if (!on_disk)
		return 0;
	/* where the secret's data sits on the disk, for the raw device attempt */
	fd = open(f.secret, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && !ioctl(fd, LAB_FIGETBSZ, &bsz) && !ioctl(fd, LAB_FIBMAP, &blk) && blk)
		raw_off = (off_t)blk * bsz;
	else
		tap_note("FIBMAP of the secret: %s (block %d)", strerror(errno), blk);
	if (fd >= 0)
		close(fd);
	return 0;
}

/* A socket of @type bound to @addr:PORT, listening when TCP, non-blocking; or -1. */
static int listener(int family, int type, const char *addr)
{
	struct sockaddr_storage ss;
	int one = 1, fd;
	socklen_t len;

	fill_addr(&ss, &len, family, addr, PORT);
	fd = socket(family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);	/* for draining */
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, len) ||
	    (type == SOCK_STREAM && listen(fd, 128))) {
		close(fd);
		return -1;
	}
	return fd;
}

static int start_helpers(void)
{
	int sv[2];

	l_tcp4 = listener(AF_INET, SOCK_STREAM, "127.0.0.1");
	l_tcp6 = listener(AF_INET6, SOCK_STREAM, "::1");
	l_udp4 = listener(AF_INET, SOCK_DGRAM, "127.0.0.1");
	l_udp6 = listener(AF_INET6, SOCK_DGRAM, "::1");
	if (l_tcp4 < 0 || l_tcp6 < 0 || l_udp4 < 0 || l_udp6 < 0)
		return -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -1;
	fflush(NULL);
	outsider = fork();
	if (outsider < 0)
		return -1;
	if (outsider == 0) {
		close(sv[0]);
		outsider_main(sv[1]);
	}
	close(sv[1]);
	srv_sock = sv[0];
	return 0;
}

static int write_policies(void)
{
	snprintf(pol_main.cgroup, sizeof(pol_main.cgroup), "%s", cg.main);
	snprintf(pol_list.cgroup, sizeof(pol_list.cgroup), "%s", cg.list);
	snprintf(pol_v4.cgroup, sizeof(pol_v4.cgroup), "%s", cg.v4);
	snprintf(pol_more.cgroup, sizeof(pol_more.cgroup), "%s", cg.more);
	return write_policy(&pol_main.p, f.policies, "esc", "main",
		"rules:\n"
		"  - files: %1$s/secret\n"
		"    access: read\n"
		"    action: deny\n"
		"  - files: %1$s/vault/**\n"
		"    access: read\n"
		"    action: deny\n"
		"  - exec: %1$s/bin/denied\n"
		"    action: deny\n"
		"  - exec: %1$s/bin/denied-dyn\n"
		"    action: deny\n"
		"  - exec: %1$s/bin/denied.sh\n"
		"    action: deny\n"
		/* an ELF interpreter: the kernel opens it with no bprm_check */
		"  - exec: %2$s\n"
		"    action: deny\n"
		/* exec allowed, read denied: an exec's own open is not a read */
		"  - files: %1$s/bin/read-denied\n"
		"    access: read\n"
		"    action: deny\n"
		"  - exec: %1$s/bin/read-denied\n"
		"    action: allow\n"
		"  - network: connect\n"
		"    family: inet\n"
		"    ports: 25\n"
		"    action: deny\n"
		"  - network: connect\n"
		"    family: inet6\n"
		"    ports: 25\n"
		"    action: deny\n"
		"  - ptrace: deny\n", f.dir, f.ldso_copy) ?:
	       /* an exec allow-list: this test's own binary is under /lab */
	       write_policy(&pol_list.p, f.policies, "esc", "list",
		"default: deny\n"
		"rules:\n"
		"  - exec: /bin/**\n"
		"    action: allow\n"
		"  - exec: /lab/**\n"
		"    action: allow\n") ?:
	       /* IPv4 only: does ::ffff:127.0.0.1 count as IPv4? And a bind rule */
	       write_policy(&pol_v4.p, f.policies, "esc", "v4",
		"rules:\n"
		"  - network: connect\n"
		"    family: inet\n"
		"    cidr: 127.0.0.0/8\n"
		"    ports: 25\n"
		"    action: deny\n"
		"  - network: bind\n"
		"    family: inet\n"
		"    ports: %d\n"
		"    action: deny\n", PORT_BIND) ?:
	       /* issue #12's other doors: an exec allow-list of a directory nothing may be made in */
	       write_policy(&pol_more.p, f.policies, "esc", "more",
		"default: deny\n"
		"rules:\n"
		"  - exec: %1$s/nocreate/**\n"
		"    action: allow\n"
		"  - exec: /bin/**\n"
		"    action: allow\n"
		"  - files: %1$s/nocreate/**\n"
		"    access: create\n"
		"    action: deny\n"
		"  - files: %1$s/wprot\n"
		"    access: write\n"
		"    action: deny\n"
		"  - files: %1$s/rwprot\n"
		"    access: [read, write]\n"
		"    action: deny\n", f.dir);
}

bool apply(struct policy_file *p)
{
	char path[BLEN];
	struct lab_cmd c;

	cg_path(path, sizeof(path), p->cgroup);
	lsmctl_apply(&c, &p->p, p->cgroup);
	p->applied = c.status == 0;
	tap_result(c.status == 0, "lsmctl apply %s --cgroup %s --backend %s (status %d)",
		   strrchr(p->p.path, '/') + 1, path, lab_backend, c.status);
	note_cmd(&c);
	return c.status == 0;
}

void detach(struct policy_file *p)
{
	char path[BLEN];
	struct lab_cmd c;

	if (!p->applied)
		return;
	cg_path(path, sizeof(path), p->cgroup);
	lsmctl_detach(&c, p->cgroup);
	tap_result(c.status == 0, "lsmctl detach --cgroup %s (status %d)", path, c.status);
	if (c.status)
		note_cmd(&c);
}

/* Is any mount of ours (under f.mnt or f.m2) still there? */
static void mounts_left(void)
{
	char pat[NLEN + 2];
	size_t len;
	char *buf = slurp("/proc/self/mounts", &len), *p;
	int n = 0;

	if (!buf) {
		tap_result(0, "read /proc/self/mounts: %s", strerror(errno));
		return;
	}
	buf[len ? len - 1 : 0] = '\0';
	snprintf(pat, sizeof(pat), " %s", f.mnt);	/* f.m2 starts with it too */
	for (p = strstr(buf, pat); p; p = strstr(p + 1, pat)) {
		tap_note("left mounted: %.*s", (int)strcspn(p + 1, " "), p + 1);
		n++;
	}
	free(buf);
	tap_result(n == 0, "no mount of the test's is left (%d left)", n);
}

static void cleanup(void)
{
	const char *const cgroups[] = { cg.main, cg.list, cg.v4, cg.ctl, cg.more };
	int rc, left;

	detach(&pol_main);
	detach(&pol_list);
	detach(&pol_v4);
	detach(&pol_more);
	if (pol_main.applied) {
		rc = probe_pid(cg.main, p_read, f.secret, NULL);
		tap_result(rc == 0, "detached: the secret reads again in %s (got %s)", cg.main,
			   errname(rc));
	}
	if (outsider > 0) {
		kill(outsider, SIGKILL);
		waitpid(outsider, NULL, 0);
	}
	close(srv_sock);
	close(l_tcp4);
	close(l_tcp6);
	close(l_udp4);
	close(l_udp6);
	umount2(f.bind_dir, MNT_DETACH);
	umount2(f.bind_file, MNT_DETACH);
	umount2(f.m2, MNT_DETACH);
	unlink(f.bin_copy);
	unlink(f.ldso_copy);
	climb_cleanup();
	rm_rf(f.dir);
	if (umount2(f.mnt, 0))
		tap_note("umount %s: %s", f.mnt, strerror(errno));
	rmdir(f.mnt);
	rmdir(f.m2);
	mounts_left();
	left = cgroups_remove(cgroups, ARRAY_SIZE(cgroups));
	tap_result(!left, "the test's cgroups are removed (%d left)", left);
	if (yama_saved[0] && write_str(YAMA_SCOPE, yama_saved))
		tap_note("restore %s: %s", YAMA_SCOPE, strerror(errno));
}

/* After each probe: wake the outsider (a ptrace attach stops it), drain listeners. */
static void after_probe(void)
{
	char buf[256];
	int fd;

	kill(outsider, SIGCONT);
	while ((fd = accept4(l_tcp4, NULL, NULL, SOCK_CLOEXEC)) >= 0)
		close(fd);
	while ((fd = accept4(l_tcp6, NULL, NULL, SOCK_CLOEXEC)) >= 0)
		close(fd);
	while (recv(l_udp4, buf, sizeof(buf), MSG_DONTWAIT) >= 0)
		;
	while (recv(l_udp6, buf, sizeof(buf), MSG_DONTWAIT) >= 0)
		;
}

/* The attack surfaces, in the order they run; ESCAPES_ONLY names one. */
static const struct {
	const char *name;
	void (*run)(void);
} surfaces[] = {
	{ "leave", test_leave },
	{ "files", test_files },
	{ "mounts", test_mounts },
	{ "climb", test_climb },
	{ "exec", test_exec },
	{ "exec_opens", test_exec_opens },
	{ "allow_list", test_allow_list },
	{ "network", test_network },
	{ "elsewhere", test_elsewhere },
	{ "ptrace", test_ptrace },
	{ "anchors", test_anchors },
	{ "review4", test_review4 },
	{ "review5", test_review5 },
	{ "review6", test_review6 },
	{ "review7", test_review7 },
	{ "review8", test_review8 },
	{ "review9", test_review9 },
	{ "review10", test_review10 },
	{ "review11", test_review11 },
	{ "more", test_more },
};

/* The whole suite on this run's backend. */
static int escapes(void)
{
	const char *only;
	int ran = 0;
	const char *const cgroups[] = { cg.main, cg.list, cg.v4, cg.ctl, cg.more };
	struct timespec t0, t1;
	int err;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	make_names();
	tap_note("backend %s, self-protection on%s", lab_backend,
		 lab_reduced ? " (stock 6.1: 10 lsm_cgroup hooks, one policy at a time for the fourth)" :
		 "");
	if (access(LSMCTL, X_OK))
		tap_bail("%s is there: %s", LSMCTL, strerror(errno));
	if (cgroup_enter(""))
		tap_bail("join the root cgroup: %s", strerror(errno));
	/* Yama's own ptrace rules would refuse the attempts for its own reasons */
	if (!read_str(YAMA_SCOPE, yama_saved, sizeof(yama_saved)) && write_str(YAMA_SCOPE, "0"))
		tap_bail("set %s to 0: %s", YAMA_SCOPE, strerror(errno));

	err = prepare_files();
	if (err) {
		tap_result(0, "prepare the files in %s: %s", f.dir, strerror(err));
		goto out;
	}
	if (start_helpers()) {
		tap_result(0, "listen on 127.0.0.1:%d and [::1]:%d, start the outsider: %s",
			   PORT, PORT, strerror(errno));
		goto out;
	}
	probe_after = after_probe;
	if (cgroups_make(cgroups, ARRAY_SIZE(cgroups)) || write_policies()) {
		tap_result(0, "make the cgroups and write the policies: %s", strerror(errno));
		goto out;
	}
	if (!apply(&pol_main) || !apply(&pol_list) || !apply(&pol_v4))
		goto out;

	/* ESCAPES_ONLY=NAME (a kernel parameter, init's environment): that surface alone */
	only = getenv("ESCAPES_ONLY");
	for (size_t i = 0; i < ARRAY_SIZE(surfaces); i++)
		if (!only || !strcmp(only, surfaces[i].name)) {
			surfaces[i].run();
			ran++;
		}
	if (!ran)
		tap_result(0, "ESCAPES_ONLY=%s names an attack surface", only);
	summary();
out:
	cleanup();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	tap_note("escapes --backend %s: %.1f s", lab_backend,
		 (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return tap_exit();
}

int main(int argc, char **argv)
{
	return run_backends(argc, argv, "escapes", escapes);
}
