"""Check a claim against the release matrix (``matrix:<scenario>`` with ``since="X.Y.Z"``):
the first release the matrix measured the scenario passing from, and every later one.
"""

from __future__ import annotations

from verified_docs.errors import Problem, SourceError
from verified_docs.render.anchors import matrix_anchor
from verified_docs.render.claim_context import CHECK_MARK, Checked, Context, contradicted, link, points_at_nothing
from verified_docs.render.claim_parse import Claim
from verified_docs.scenario.load import find_scenario


def check_matrix(claim: Claim, page: str, ctx: Context) -> Checked:
    """The link for a ``matrix:`` claim on ``page`` (posix, below docs/), to the scenario's row
    of the release matrix. Raises :class:`SourceError` at the claim for an unknown scenario,
    one never measured, another first release, or no page showing the matrix."""
    where, name = claim.where, claim.evidence[len("matrix:") :]
    head = f"claim: {claim.evidence}:"
    try:
        find_scenario(ctx.scenarios, name, where)
    except SourceError as e:
        raise points_at_nothing(e) from None
    if ctx.matrix is None or name not in ctx.matrix.scenarios:
        raise SourceError(
            Problem(
                where,
                f"{head} the release matrix has not measured this scenario as its files are now",
                (f"run `nox -s release-matrix -- --only {name}`",),
            )
        )
    measured = ctx.matrix.measured_since(name)
    if measured != claim.since:
        raise contradicted(
            where,
            f"{head} the page says since {claim.since}; the release matrix measured "
            f"{measured or 'no release it passes from'}",
            f"releases measured: {', '.join(ctx.matrix.releases)}",
        )
    if ctx.site.matrix_page is None:
        raise SourceError(
            Problem(where, f"{head} no page shows the release matrix", ("add <!-- verified-matrix --> to a page",))
        )
    return Checked(
        claim,
        link(page, ctx.site.matrix_page, matrix_anchor(name)),
        CHECK_MARK,
        f"Measured by the release matrix: {name} passes on toolnexus {measured} and every later release",
        f"Release matrix: {name} since {measured}",
    )
