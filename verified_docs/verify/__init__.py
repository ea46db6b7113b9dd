"""Is what a run did what its scenario says?

In: what ``run`` observed, and the scenario's ``expect``. Out: a ``RunVerdict`` per run, with
every problem at its ``scenario.yaml`` line. ``evidence`` checks the observations, ``golden``
the printed output, ``replies`` that every delivered reply changes what follows, ``timeline``
orders the run's messages; ``verdict`` runs one program and gives its verdict; ``scenarios``
runs a scenario's runs in order (again with varied values and fresh replies), and many
scenarios side by side.
"""
