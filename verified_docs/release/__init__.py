"""The same scenarios on other toolnexus releases.

In: per-release verification reports (``nox -s release-matrix``). Out: the release matrix
(``rules/release-matrix.json``), the check of every ``since``, and the new-release alarm's
list of scenarios, pages and claims a release changes.
"""
