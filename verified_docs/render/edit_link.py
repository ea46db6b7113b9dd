"""Where a page's "edit this page" link points: the Markdown file in this project's repository;
and the repository the header links to, read from the same address.

``VERIFIED_DOCS_EDIT_URI`` (an absolute URL ending in ``/``, to which a page's path below
``docs/`` is appended) wins. Without it, the link is derived from the git remote ``origin`` and
the current branch when the remote is on GitHub or GitLab; otherwise pages have no edit link
(a site whose repository address is unknown must not link to a guess).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

ENV = "VERIFIED_DOCS_EDIT_URI"
# The theme partial that links the header to the repository without fetching anything from
# its host (partials/source.html): a theme's custom_dir, which MkDocs and Zensical both read.
THEME_DIR = Path(__file__).with_name("theme")


def https_repo(remote: str) -> str | None:
    """``https://host/owner/repo`` for a GitHub or GitLab remote in https, ssh or scp form
    (``git@github.com:owner/repo.git``); ``None`` for any other host or shape."""
    m = re.fullmatch(r"(?:https?|ssh)://(?:[^@/]+@)?([^/:]+)(?::\d+)?/(.+?)(?:\.git)?/?", remote) or re.fullmatch(
        r"[^@/]+@([^:/]+):(.+?)(?:\.git)?/?", remote
    )
    if m is None or not re.search(r"(^|\.)(github\.com|gitlab\.com)$|^gitlab\.", m.group(1)):
        return None
    return f"https://{m.group(1)}/{m.group(2)}"


def edit_uri_for(repo: str, branch: str, docs_dir: str = "docs") -> str:
    """The edit URL prefix for ``docs_dir`` on ``branch`` of ``repo`` (from :func:`https_repo`)."""
    marker = "-/edit" if "gitlab" in repo.split("/")[2] else "edit"
    return f"{repo}/{marker}/{branch}/{docs_dir}/"


def _git(root: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else None


def resolve_edit_uri(root: Path, docs_dir: str = "docs") -> tuple[str | None, str]:
    """(edit URI prefix or ``None``, a sentence saying where it came from) for the project at ``root``."""
    configured = os.environ.get(ENV)
    if configured:
        return configured if configured.endswith("/") else configured + "/", f"from {ENV}"
    remote = _git(root, "remote", "get-url", "origin")
    if remote is None:
        return (
            None,
            f"no edit links: no git remote 'origin' and {ENV} is not set (to the edit URL of docs/, ending in /)",
        )
    repo = https_repo(remote)
    branch = _git(root, "symbolic-ref", "--short", "HEAD")  # None when detached
    if repo is None or branch is None:
        return None, (
            f"no edit links: cannot tell the edit URL of {remote!r}; set {ENV} to the edit URL of docs/, "
            "ending in / (such as https://github.com/OWNER/REPO/edit/main/docs/)"
        )
    return edit_uri_for(repo, branch, docs_dir), f"from git remote origin ({remote}, branch {branch})"


def repository_of(edit_uri: str) -> tuple[str, str] | None:
    """(repository URL, its name: the path after the host) of an edit URI in GitHub's or
    GitLab's shape, ``https://host/owner/repo/edit/<branch>/docs/`` (``/-/edit/`` on
    GitLab); ``None`` for any other shape (the header then has no repository link)."""
    m = re.fullmatch(r"(https?://[^/]+/(.+?))(?:/-)?/edit/[^/]+/.*", edit_uri)
    return (m.group(1), m.group(2)) if m else None


def set_repository(config: Any, edit_uri: str | None) -> None:
    """Set ``repo_url`` and ``repo_name`` in ``config`` (a MkDocs configuration, or the plain
    dict of one) from ``edit_uri`` (:func:`repository_of`), unless ``repo_url`` is set already.
    The header's link comes from :data:`THEME_DIR`'s ``partials/source.html``, which fetches nothing."""
    repository = repository_of(edit_uri) if edit_uri else None
    if repository is not None and not config.get("repo_url"):
        config["repo_url"], config["repo_name"] = repository
