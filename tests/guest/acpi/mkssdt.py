#!/usr/bin/env python3
"""Write the ACPI table the acpi-lockdown guest test looks for.

An SSDT that defines one name, with OEM table id LABTABLE. The kernel
installs it at boot when it finds it in the initrd under
kernel/firmware/acpi/ (CONFIG_ACPI_TABLE_UPGRADE), unless lockdown
refuses the table upgrade.

    mkssdt.py OUT.aml
"""
import struct
import sys

OEM_ID = b"LABLAB"
OEM_TABLE_ID = b"LABTABLE"
# Name (LABX, One): NameOp, a name segment, OneOp.
AML = b"\x08LABX\x01"
HEADER = "<4sIBB6s8sI4sI"


def ssdt() -> bytes:
    length = struct.calcsize(HEADER) + len(AML)

    def table(checksum: int) -> bytes:
        return struct.pack(HEADER, b"SSDT", length, 2, checksum, OEM_ID,
                           OEM_TABLE_ID, 1, b"LAB ", 1) + AML

    # The bytes of a table, its checksum included, add up to 0 mod 256.
    return table((-sum(table(0))) & 0xFF)


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    with open(sys.argv[1], "wb") as out:
        out.write(ssdt())
    return 0


if __name__ == "__main__":
    sys.exit(main())
