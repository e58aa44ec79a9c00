# The profile of the lsm-apparmor guest test: /lab/tests/lsm-apparmor,
# run again by itself once this is loaded, may map itself and read
# /tmp/aa-allowed, and nothing else.
profile lsm-apparmor-confined /lab/tests/lsm-apparmor {
  /lab/tests/lsm-apparmor mr,
  /tmp/aa-allowed r,
}
