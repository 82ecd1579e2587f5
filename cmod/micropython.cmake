# SPDX-License-Identifier: MIT
# The clock's user C modules, for MicroPython's USER_C_MODULES (firmware.sh passes this file).
include(${CMAKE_CURRENT_LIST_DIR}/refsleep/micropython.cmake)
