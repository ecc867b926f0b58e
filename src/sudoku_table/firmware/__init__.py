"""The wires: reed-matrix scanning, NeoPixel output, their simulators and the table config."""
