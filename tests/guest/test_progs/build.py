#!/usr/bin/env python3
"""Build the kernel tree's BPF selftests runner, test_progs, pruned to the
tests of the BPF LSM, for the guest.

    build.py KSRC VMLINUX WORK DEST

KSRC is the unpacked 6.1 tree (build/kernel/linux), VMLINUX the lab
kernel whose BTF the BPF programs are compiled against, WORK a folder for
intermediate files and DEST the folder the guest gets as /lab/test_progs.

The selftests' own Makefile builds every one of its ~600 BPF programs and
a kernel module; this builds the tree's libbpf and bpftool, then only the
programs the tests below include, the same way (clang -mcpu=v3, linked
and turned into skeletons by the tree's bpftool), and links test_progs
static. The guest also needs a dynamically linked bash (test_bprm_opts
watches the loader drop LD_PRELOAD under secureexec) and a real rm
(test_local_storage runs a copy of it): they go to DEST/root with the
libraries they link against.
"""
import os
import re
import shutil
import subprocess
import sys

# The tests (prog_tests/NAME.c) and the BPF programs (progs/NAME.c) whose
# skeletons they include.
TESTS = ["test_lsm", "lsm_cgroup", "bpf_cookie", "test_local_storage",
         "test_bprm_opts", "deny_namespace"]
PROGS = ["lsm", "lsm_cgroup", "lsm_cgroup_nonvoid", "test_bpf_cookie",
         "kprobe_multi", "local_storage", "bprm_opts", "test_deny_namespace"]
# test_progs.c and the helpers the selftests' Makefile links it with.
HELPERS = ["test_progs", "cgroup_helpers", "trace_helpers", "network_helpers",
           "testing_helpers", "btf_helpers", "cap_helpers", "test_loader"]
# Host programs the tests run in the guest, with their libraries.
HOST_PROGS = ["/bin/bash", "/bin/rm"]


def run(argv, **kw):
    subprocess.run(argv, check=True, **kw)


def clang_sys_includes():
    """clang's own system include folders, as -idirafter flags (the
    selftests' get_sys_includes): BPF programs include <linux/...>."""
    out = subprocess.run(["clang", "-v", "-E", "-"], stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, check=True).stderr
    inside, flags = False, []
    for line in out.splitlines():
        if line.startswith("#include <...> search starts here:"):
            inside = True
        elif line.startswith("End of search list."):
            inside = False
        elif inside:
            flags += ["-idirafter", line.strip()]
    return flags


def copy_with_libs(prog, root):
    """PROG and every library ldd lists for it, at their paths under ROOT."""
    out = subprocess.run(["ldd", prog], capture_output=True, text=True,
                         check=True).stdout
    for path in [prog] + re.findall(r"(/\S+)", out):
        dest = os.path.join(root, path.lstrip("/"))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copy(os.path.realpath(path), dest)


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    ksrc, vmlinux, work, dest = (os.path.abspath(a) for a in sys.argv[1:])
    selftests = os.path.join(ksrc, "tools/testing/selftests/bpf")
    libbpf = os.path.join(work, "libbpf")
    headers = os.path.join(work, "include")
    bpftool = os.path.join(work, "bpftool/bootstrap/bpftool")
    obj = os.path.join(work, "obj")
    for d in (libbpf, os.path.join(work, "bpftool"), os.path.join(obj, "prog_tests")):
        os.makedirs(d, exist_ok=True)

    # The tree's libbpf (static, with its headers) and bpftool.
    # One job each (the make that runs this does not hand its jobserver on).
    run(["make", "-s", "-C", os.path.join(ksrc, "tools/lib/bpf"),
         "OUTPUT=%s/" % libbpf, "DESTDIR=" + work, "prefix=",
         os.path.join(libbpf, "libbpf.a"), "install_headers"])
    run(["make", "-s", "-C", os.path.join(ksrc, "tools/bpf/bpftool"),
         "OUTPUT=%s/" % os.path.join(work, "bpftool"), "bootstrap"],
        stdout=subprocess.DEVNULL)

    with open(os.path.join(obj, "vmlinux.h"), "w") as f:
        run([bpftool, "btf", "dump", "file", vmlinux, "format", "c"], stdout=f)

    bpf_cflags = ["-g", "-Werror", "-D__TARGET_ARCH_x86", "-I" + obj,
                  "-I" + headers, "-I" + selftests,
                  "-I" + os.path.join(ksrc, "tools/include/uapi")] + \
        clang_sys_includes() + ["-Wno-compare-distinct-pointer-types",
                                "-DENABLE_ATOMICS_TESTS"]
    for prog in PROGS:
        o = os.path.join(obj, prog)
        run(["clang"] + bpf_cflags + ["-O2", "-target", "bpf", "-mcpu=v3", "-c",
             os.path.join(selftests, "progs", prog + ".c"), "-o", o + ".bpf.o"])
        run([bpftool, "gen", "object", o + ".linked.o", o + ".bpf.o"])
        with open(o + ".skel.h", "w") as f:
            run([bpftool, "gen", "skeleton", o + ".linked.o", "name", prog], stdout=f)

    # The test list test_progs.c includes, as the selftests' Makefile makes it.
    defines = []
    for test in TESTS:
        with open(os.path.join(selftests, "prog_tests", test + ".c")) as f:
            for line in f:
                m = re.match(r"^void (serial_)?test_([a-zA-Z0-9_]+)\((void)?\)", line)
                if m:
                    defines.append("DEFINE_TEST(%s)\n" % m.group(2))
    with open(os.path.join(obj, "prog_tests/tests.h"), "w") as f:
        f.write("/* Generated header, do not edit */\n" + "".join(sorted(defines)))

    cflags = ["-g", "-O0", "-Wall", "-Werror", "-I" + selftests, "-I" + headers,
              "-I" + obj, "-I" + os.path.join(ksrc, "tools/lib"),
              "-I" + os.path.join(ksrc, "tools/include"),
              "-I" + os.path.join(ksrc, "tools/include/uapi")]
    objs = []
    for src in [os.path.join(selftests, h + ".c") for h in HELPERS] + \
            [os.path.join(selftests, "prog_tests", t + ".c") for t in TESTS]:
        o = os.path.join(obj, os.path.basename(src)[:-2] + ".o")
        run(["gcc"] + cflags + ["-c", src, "-o", o])
        objs.append(o)
    os.makedirs(dest, exist_ok=True)
    # glibc warns that getpwnam() and the like need its shared libraries
    # at run time in a static program: test_progs does not call them.
    link = subprocess.run(["gcc", "-static", "-o", os.path.join(dest, "test_progs")] +
                          objs + [os.path.join(libbpf, "libbpf.a"), "-lelf", "-lz",
                                  "-lzstd", "-lrt", "-lpthread"],
                          capture_output=True, text=True)
    sys.stderr.write("".join(line + "\n" for line in link.stderr.splitlines()
                             if "statically linked applications requires" not in line
                             and "in function `" not in line))
    if link.returncode:
        sys.exit("build.py: linking test_progs failed")

    root = os.path.join(dest, "root")
    shutil.rmtree(root, ignore_errors=True)
    for prog in HOST_PROGS:
        copy_with_libs(prog, root)


if __name__ == "__main__":
    main()
