"""The author's and the reader's own runs, through the same stages as the build.

In: the project, and saves to it (``author_loop``), or one scenario (``try_example``). Out: a
preview server with reloads and a failure banner (``preview``), or a scenario's output and its
model served for the reader's own copy.
"""
