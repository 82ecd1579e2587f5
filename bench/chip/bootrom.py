# SPDX-License-Identifier: MIT
# The RP2040 boot ROM for bench/chip, as a 16 KB .bin, from rp2040js's demo/bootrom.ts.
#   python bench/chip/bootrom.py bootrom.ts bootrom.bin
# rp2040js runs MicroPython's calls into the ROM (flash, memory, floats) but its npm package
# carries no ROM: its repository's demo/bootrom.ts (tag v1.3.3) holds the B1 ROM as one
# Uint32Array of 4096 words. A ROM dumped from a Pico (picotool save -r 0 0x4000) needs no
# conversion.
import re
import struct
import sys

WORDS = 4096


def convert(text):
    """The ROM's bytes from the TypeScript source's Uint32Array literal."""
    found = re.search(r"Uint32Array\(\s*\[(.*?)\]\s*\)", text, re.S)
    if not found:
        raise ValueError("no Uint32Array([...]) in the file: not rp2040js's demo/bootrom.ts")
    words = [int(word, 0) for word in re.findall(r"0x[0-9a-fA-F]+|\d+", found.group(1))]
    if len(words) != WORDS:
        raise ValueError("%d words, a boot ROM has %d" % (len(words), WORDS))
    return struct.pack("<%dI" % WORDS, *words)


def main(argv):
    if len(argv) != 2:
        print("usage: python bench/chip/bootrom.py bootrom.ts bootrom.bin", file=sys.stderr)
        return 2
    try:
        with open(argv[0]) as source:
            data = convert(source.read())
    except (OSError, ValueError) as error:
        print("bootrom.py: %s: %s" % (argv[0], error), file=sys.stderr)
        return 2
    with open(argv[1], "wb") as out:
        out.write(data)
    print("%s: %d bytes" % (argv[1], len(data)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
