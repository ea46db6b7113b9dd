"""Run one program of a scenario as its own process and collect what it did.

``process`` owns the child process (timeout, killing the whole tree); ``languages`` knows how
each language is started and observed; ``observation`` is what came back.
"""
