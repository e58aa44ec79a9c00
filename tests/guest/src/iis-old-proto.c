// SPDX-License-Identifier: GPL-2.0
/*
 * What an lsm/inode_init_security program written for Linux 6.1's
 * prototype gets on a kernel with the series, which gives the hook
 * 5 arguments instead of 6: one that declares 6.1's return value slot,
 * the seventh, is refused by the verifier, and loads and runs on stock;
 * one that reads 6.1's sixth argument, len, loads on both, and reads a
 * kernel pointer on stock but the return value of the programs before it
 * (0 here) with the series.
 */
#include <fcntl.h>
#include <unistd.h>

#include "inode_init_61.skel.h"
#include "lab_test.h"

/* x86-64's kernel half: where a pointer 6.1 hands over points. */
#define KERNEL_HALF 0xffff800000000000ULL

static char log_buf[65536];

/* Open the object with only PROG to load; NULL and errno on failure. */
static struct inode_init_61 *open_one(const char *prog)
{
	struct inode_init_61 *skel = inode_init_61__open();
	struct bpf_program *p;

	if (!skel)
		return NULL;
	bpf_object__for_each_program(p, skel->obj) {
		bpf_program__set_autoload(p, !strcmp(bpf_program__name(p), prog));
		if (!strcmp(bpf_program__name(p), prog)) {
			bpf_program__set_log_buf(p, log_buf, sizeof(log_buf));
			bpf_program__set_log_level(p, 1);
		}
	}
	return skel;
}

/* Create and remove a file on tmpfs: one run of the hook. */
static int create_one(void)
{
	int fd = open("/tmp/iis-old-proto", O_CREAT | O_EXCL | O_WRONLY, 0644);

	if (fd < 0)
		return errno;
	close(fd);
	unlink("/tmp/iis-old-proto");
	return 0;
}

static void with_ret(bool series)
{
	struct inode_init_61 *skel = open_one("with_ret_61");
	struct bpf_link *link;
	int err;

	if (!skel) {
		tap_result(0, "open inode_init_61.bpf.o: %s", strerror(errno));
		return;
	}
	log_buf[0] = '\0';
	err = inode_init_61__load(skel);
	if (series) {
		tap_result(err && strstr(log_buf, "doesn't have 7-th argument"),
			   "a program with 6.1's seventh slot (ret) is refused by the verifier: \"doesn't have 7-th argument\" (load: %s)",
			   err ? strerror(-err) : "loaded");
		inode_init_61__destroy(skel);
		return;
	}
	tap_result(!err, "a program with 6.1's seventh slot (ret) loads on stock (%s)",
		   err ? strerror(-err) : "loaded");
	link = err ? NULL : bpf_program__attach(skel->progs.with_ret_61);
	err = link ? create_one() : errno;
	tap_result(link && !err && skel->bss->runs > 0 && skel->bss->seen_ret == 0,
		   "on stock it runs at a file's creation, which succeeds, and reads ret=0 (runs %llu, ret %lld, create: %s)",
		   (unsigned long long)skel->bss->runs, (long long)skel->bss->seen_ret,
		   err ? strerror(err) : "success");
	bpf_link__destroy(link);
	inode_init_61__destroy(skel);
}

static void reads_len(bool series)
{
	struct inode_init_61 *skel = open_one("reads_len_61");
	struct bpf_link *link = NULL;
	int err;

	if (!skel) {
		tap_result(0, "open inode_init_61.bpf.o: %s", strerror(errno));
		return;
	}
	err = inode_init_61__load(skel);
	tap_result(!err, "a program that reads 6.1's sixth argument (len) loads (%s)",
		   err ? strerror(-err) : "loaded");
	if (!err)
		link = bpf_program__attach(skel->progs.reads_len_61);
	err = link ? create_one() : errno;
	tap_result(link && !err && skel->bss->runs > 0,
		   "it runs at a file's creation, which succeeds (runs %llu, create: %s)",
		   (unsigned long long)skel->bss->runs, err ? strerror(err) : "success");
	if (series)
		tap_result(skel->bss->runs > 0 && skel->bss->seen_len == 0,
			   "with the series, 6.1's len slot holds the return value of the programs before it, 0, not a pointer (read 0x%llx)",
			   (unsigned long long)skel->bss->seen_len);
	else
		tap_result(skel->bss->seen_len >= KERNEL_HALF,
			   "on stock, len is a kernel pointer (read 0x%llx)",
			   (unsigned long long)skel->bss->seen_len);
	bpf_link__destroy(link);
	inode_init_61__destroy(skel);
}

int main(void)
{
	const char *variant = getenv("LAB_VARIANT") ?: "?";
	bool series = lab_series();

	tap_note("variant %s: %s", variant, series ? "with the series" : "stock 6.1");
	with_ret(series);
	reads_len(series);
	return tap_exit();
}
