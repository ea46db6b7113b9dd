"""The same scenarios on other toolnexus releases.

In: per-release verification reports (``nox -s release-matrix``). Out: the release matrix
(``rules/release-matrix.json``, a row per scenario with the digest of the files it measured),
the check that every scenario has such a row for its present files, and the new-release alarm's
list of scenarios, pages and claims a release changes.
"""
