# SPDX-License-Identifier: MIT
# Button and lever pins: a hard IRQ on both edges pushes (button, pressed, stamp) into the EdgeRing.
#
# Buttons are active low: the switch pulls the pin to GND against the internal pull-up. The
# handler reads the level when it runs (not which edge fired it), stamps it and returns; every
# bounce edge lands in the ring and debouncing is the main loop's job (hal/debounce.py).
# Where the hardware stamps a button's edges (the levers: hal/rp2040/lever_stamps.py) its
# interrupt runs the handler given for it instead, which takes them from there: the interrupt
# still wakes the core from a sleep, the stamps are the hardware's.


class Button:
    """One logical button on an injected machine.Pin already set to input with pull-up."""

    def __init__(self, pin, button, edges, ticks_ms, handler=None):
        self.button = button
        self._pin = pin
        # Bound methods cached once: the handler then allocates nothing, as a hard IRQ must.
        self._level = pin.value
        self._push = edges.push
        self._ticks_ms = ticks_ms
        self._handler = self._edge if handler is None else handler

    def _edge(self, pin):
        self._push(self.button, self._level() == 0, self._ticks_ms())

    def enable(self):
        pin = self._pin
        pin.irq(handler=self._handler, trigger=pin.IRQ_FALLING | pin.IRQ_RISING, hard=True)

    def disable(self):
        pin = self._pin
        pin.irq(handler=None, trigger=pin.IRQ_FALLING | pin.IRQ_RISING)

    def pressed(self):
        """The level now (for boot-time checks such as a button held at power-on)."""
        return self._level() == 0


def make_buttons(machine, pins, edges, ticks_ms, handlers=None):
    """A Button per {logical button: GPIO} entry of `pins`, interrupts enabled, in button order;
    `handlers` {button: handler} for the buttons whose edges the hardware stamps."""
    Pin = machine.Pin
    made = []
    for button in sorted(pins):
        pin = Pin(pins[button], Pin.IN, Pin.PULL_UP)
        handler = handlers.get(button) if handlers else None
        made.append(Button(pin, button, edges, ticks_ms, handler))
    for button in made:
        button.enable()
    return made
