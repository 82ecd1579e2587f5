# SPDX-License-Identifier: MIT
# Heap taken by importing modules, from .mpy, in a fresh MicroPython (bytecode, function and class
# objects, interned names): `micropython bench/modules.py MPY_DIR module...`
import gc
import sys

top = sys.argv[1]
sys.path[:0] = [top + "/firmware", top]
gc.collect()
before = gc.mem_alloc()
for name in sys.argv[2:]:
    __import__(name)
gc.collect()
print("module_heap_bytes", gc.mem_alloc() - before)
