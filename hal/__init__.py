# SPDX-License-Identifier: MIT
# The narrow hardware layer the app sees, implemented for the RP2040 (hal/rp2040) and the desktop
# (sim/hal_base.py and its family); tests/hal/test_hal_contract.py holds each to this contract.
#
# A HAL object offers:
#   ticks_ms()            the current stamp (ms, wraps at 2**30)
#   edges                 an EdgeRing that button and lever interrupts fill with timestamped edges
#   wait(until)           sleep until the stamp `until`, an edge or a serial byte (None: no stamp)
#   display.show(frame, dirty)  write a finished frame (the app calls it only when the frame
#                         changed); `dirty` lists the windows that changed (ui.dirty.Dirty), which
#                         the display sends and then clears, or is None: the driver finds them
#   buzzer.play(hz, ms, now) / buzzer.update(now) / buzzer.stop()
#   leds.set(left_on, right_on)  the running-side lights (two bools): writes only a level that
#                         changed, allocates nothing
#   storage.read(name) -> bytes or None, storage.write(name, data)  (atomic: temp + rename)
#   battery_mv()          supply voltage in mV, or -1 when the board cannot measure it
#   feed()                feed the watchdog (main loop only)
#   serial                None, or a byte channel: read_into(buf) -> count (never blocks),
#                         write(data)
