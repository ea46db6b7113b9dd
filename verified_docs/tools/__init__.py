"""Tools that measure the verdict path and decide no verdict: ``bench`` (speed figures),
``soak`` (the same build again and again) and ``mutate`` (do the checks catch careless edits).
The result cache ignores them.
"""
