"""One program run against its scripted model, and what it did.

In: a ``Scenario``'s run and its programs. Out: the process's exit code and output, the mock
model's recorded requests, the tracer's events (tool runs, ``ctx.answer``, ``wait_for``) and
the lines that executed. ``mock_model`` is the only fake; ``process`` and ``forkserver`` start
programs; ``tmproot`` and ``netns`` keep runs in their own temporary root and offline.
"""
