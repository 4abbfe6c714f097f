"""The board renderers as they were before boards were composed from cached sprites and bands
(the commit "Every picture legible on a phone, every text in its place"), frozen: the baseline
``bench.perf.render`` measures against in the same run, and the pictures
``tests/test_render_speed.py`` compares today's with. Do not change them.

They draw in RGB and quantize each picture (fast octree) into a PNG at compress level 3.
"""
