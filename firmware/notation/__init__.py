# Preset notations: parsers into the clock model, formatters back out, and detection.
