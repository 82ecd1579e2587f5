# SPDX-License-Identifier: MIT
# CPython stand-in for MicroPython's C `framebuf`: the subset the firmware draws with.
#
# Only the monochrome formats: MONO_VLSB (the SSD1306's own: a byte is 8 pixels down a column,
# bit 0 on top) for frames, MONO_HLSB for a blit palette. Clipping, the blit key (compared after
# the palette maps a colour) and the (buffer, width, height, format) source tuple behave as the
# C module does; tests/ui/test_framebuf_shim_host.py draws the same frames under both.
MONO_VLSB = 0
MONO_HLSB = 3
MONO_HMSB = 4
_FORMATS = (MONO_VLSB, MONO_HLSB, MONO_HMSB)


class FrameBuffer:
    def __init__(self, buffer, width, height, format, stride=None):
        if format not in _FORMATS:
            raise ValueError("invalid format")
        if stride is None:
            stride = width
        if format == MONO_VLSB:
            needed = ((height + 7) >> 3) * stride
        else:
            needed = ((stride + 7) >> 3) * height
        if len(buffer) < needed:
            raise ValueError("buffer too small")
        self.buf = buffer
        self.width = width
        self.height = height
        self.format = format
        self.stride = stride

    def _index(self, x, y):
        if self.format == MONO_VLSB:
            return (y >> 3) * self.stride + x, y & 7
        index = (x + y * ((self.stride + 7) & ~7)) >> 3
        return index, (7 - (x & 7)) if self.format == MONO_HLSB else (x & 7)

    def _get(self, x, y):
        index, bit = self._index(x, y)
        return self.buf[index] >> bit & 1

    def _set(self, x, y, colour):
        index, bit = self._index(x, y)
        if colour:
            self.buf[index] |= 1 << bit
        else:
            self.buf[index] &= 0xFF ^ (1 << bit)

    def pixel(self, x, y, colour=None):
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        if colour is None:
            return self._get(x, y)
        self._set(x, y, colour)
        return None

    def fill(self, colour):
        self.fill_rect(0, 0, self.width, self.height, colour)

    def fill_rect(self, x, y, w, h, colour):
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self.height or x >= self.width:
            return
        x_end = min(self.width, x + w)
        y_end = min(self.height, y + h)
        x = max(x, 0)
        y = max(y, 0)
        if self.format != MONO_VLSB:
            for row in range(y, y_end):
                for column in range(x, x_end):
                    self._set(column, row, colour)
            return
        buf = self.buf
        while y < y_end:
            stop = min((y | 7) + 1, y_end)  # the end of this page, or of the rectangle
            mask = ((1 << (stop - y)) - 1) << (y & 7)
            first = (y >> 3) * self.stride
            if colour:
                for i in range(first + x, first + x_end):
                    buf[i] |= mask
            else:
                mask ^= 0xFF
                for i in range(first + x, first + x_end):
                    buf[i] &= mask
            y = stop

    def hline(self, x, y, w, colour):
        self.fill_rect(x, y, w, 1, colour)

    def vline(self, x, y, h, colour):
        self.fill_rect(x, y, 1, h, colour)

    def rect(self, x, y, w, h, colour, fill=False):
        if fill:
            self.fill_rect(x, y, w, h, colour)
            return
        self.fill_rect(x, y, w, 1, colour)
        self.fill_rect(x, y + h - 1, w, 1, colour)
        self.fill_rect(x, y, 1, h, colour)
        self.fill_rect(x + w - 1, y, 1, h, colour)

    def blit(self, source, x, y, key=-1, palette=None):
        source = _as_framebuffer(source)
        if palette is not None:
            palette = _as_framebuffer(palette)
        if x >= self.width or y >= self.height or -x >= source.width or -y >= source.height:
            return
        x0 = max(0, x)
        y0 = max(0, y)
        x1 = max(0, -x)
        y1 = max(0, -y)
        x0_end = min(self.width, x + source.width)
        y0_end = min(self.height, y + source.height)
        while y0 < y0_end:
            source_x = x1
            for column in range(x0, x0_end):
                colour = source._get(source_x, y1)
                if palette is not None:
                    colour = palette._get(colour, 0)
                if colour != key:
                    self._set(column, y0, colour)
                source_x += 1
            y0 += 1
            y1 += 1


def _as_framebuffer(source):
    if isinstance(source, FrameBuffer):
        return source
    if not 4 <= len(source) <= 5:
        raise ValueError("a blit source is a FrameBuffer or (buffer, width, height, format)")
    return FrameBuffer(*source)
