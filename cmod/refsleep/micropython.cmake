# SPDX-License-Identifier: MIT
# refsleep (refsleep.c): the RP2040 asleep on a 32.768 kHz reference, its time kept.
add_library(usermod_refsleep INTERFACE)
target_sources(usermod_refsleep INTERFACE ${CMAKE_CURRENT_LIST_DIR}/refsleep.c)
target_include_directories(usermod_refsleep INTERFACE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(usermod INTERFACE usermod_refsleep)
