"""Tools that measure the verdict path and decide no verdict: ``bench`` (speed figures),
``soak`` (the same build again and again), ``mutate`` (do the checks catch careless edits) and
``lockfile`` (does ``uv.lock`` match ``pyproject.toml``). The result cache ignores them.
"""
