# SPDX-License-Identifier: MIT
# The narrow hardware layer the app sees, implemented for the RP2040 (hal/rp2040) and the desktop
# (sim/hal_base.py and its family); tests/hal/test_hal_contract.py holds each to this contract.
#
# A HAL object offers:
#   ticks_ms()            the current stamp (ms, wraps at 2**30)
#   edges                 an EdgeRing of timestamped edges: button interrupts fill it, and the
#                         levers' edges stamped by hardware where the board has it (the RP2040's
#                         PIO and DMA: hal/rp2040/lever_stamps.py), else by their interrupts
#   wait(until)           sleep until the stamp `until`, an edge or a serial byte (None: no stamp);
#                         it may return early, and the loop takes that as a pass with nothing to
#                         do. Edges are stamped by their interrupts whatever the wait does: the
#                         RP2040 HAL on battery sleeps the chip lightly (machine.lightsleep,
#                         ended by the stamp or any button's edge) and in standby dormant
#                         (ended by a lever, PLAY or USB power only); with USB power, and on
#                         the desktop and in the browser, it waits as they always did
#   on_battery()          True when no USB power feeds the board (False where it cannot tell)
#   standby(on)           the clock switched off (True: display dark, lights off, no tone; a
#                         wait may then be the lowest state) or back on (False)
#   display.show(frame, dirty)  write a finished frame (the app calls it only when the frame
#                         changed); `dirty` lists the windows that changed (ui.dirty.Dirty), which
#                         the display sends and then clears, or is None: the driver finds them
#   display.power(on)     the panel dark (its picture kept) or showing again
#   display.power_save(on)  optional: a face that draws less current (an OLED's contrast)
#   display.wake()        optional: called after each sleep (an SPI display re-inits its bus)
#   display.overlaps      optional, True: display.send(frame, dirty) starts show()'s writes and
#                         returns while they go out (DMA); display.wait() waits for them, as
#                         the next show() does, and the HAL does before a sleep
#   buzzer.play(hz, ms, now) / buzzer.update(now) / buzzer.stop()
#   leds.set(left_on, right_on)  the running-side lights (two bools): writes only a level that
#                         changed, allocates nothing; leds.left_on, leds.right_on: the levels
#                         set; leds.flash_ms: a running light's flash each second on battery
#                         (0: steady)
#   storage.read(name) -> bytes or None, storage.write(name, data)  (atomic: temp + rename)
#   slots                 None, or the game's slot ring (hal/slots.py SlotRing): flash blocks
#                         erased ahead, which a save in play programs without an erase (on the
#                         board inside littlefs files, hal/lfs_slots.py; sim/nor_file.py's file)
#   battery_mv()          supply voltage in mV, or -1 when the board cannot measure it
#   gauge                 None, or the board's hal.battery.Gauge (its cells' curve, its current)
#   feed()                feed the watchdog (main loop only)
#   serial                None, or a byte channel: read_into(buf) -> count (never blocks),
#                         write(data)
