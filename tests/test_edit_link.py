"""Edit links point at this project's repository, derived from its git remote or configured."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from verified_docs.render.edit_link import (
    ENV,
    edit_uri_for,
    https_repo,
    repository_of,
    resolve_edit_uri,
    set_repository,
)


@pytest.mark.parametrize(
    "remote, repo",
    [
        ("https://github.com/acme/docs.git", "https://github.com/acme/docs"),
        ("git@github.com:acme/docs.git", "https://github.com/acme/docs"),
        ("ssh://git@gitlab.com:2222/group/sub/docs.git", "https://gitlab.com/group/sub/docs"),
        ("https://gitlab.example.org/group/docs", "https://gitlab.example.org/group/docs"),
        ("https://git.example.org/acme/docs.git", None),
        ("/srv/git/docs.git", None),
    ],
)
def test_remote_to_repository_url(remote: str, repo: str | None) -> None:
    assert https_repo(remote) == repo


def test_edit_uri_per_host() -> None:
    assert edit_uri_for("https://github.com/acme/docs", "main") == "https://github.com/acme/docs/edit/main/docs/"
    assert (
        edit_uri_for("https://gitlab.com/g/docs", "trunk", "site/docs")
        == "https://gitlab.com/g/docs/-/edit/trunk/site/docs/"
    )


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def test_resolved_from_the_remote_and_branch_or_configured_or_absent(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    git(tmp_path, "init", "-q", "-b", "guide")
    assert resolve_edit_uri(tmp_path)[0] is None  # no remote: no edit link rather than a guess
    git(tmp_path, "remote", "add", "origin", "git@github.com:acme/suspension-docs.git")
    assert resolve_edit_uri(tmp_path)[0] == "https://github.com/acme/suspension-docs/edit/guide/docs/"
    monkeypatch.setenv(ENV, "https://code.example.org/docs/edit/main/docs")
    assert resolve_edit_uri(tmp_path)[0] == "https://code.example.org/docs/edit/main/docs/"


@pytest.mark.parametrize(
    "edit_uri, repository",
    [
        ("https://github.com/acme/docs/edit/main/docs/", ("https://github.com/acme/docs", "acme/docs")),
        (
            "https://gitlab.com/group/sub/docs/-/edit/main/docs/",
            ("https://gitlab.com/group/sub/docs", "group/sub/docs"),
        ),
        (
            "https://git.example.org/verified-docs/edit/main/docs/",
            ("https://git.example.org/verified-docs", "verified-docs"),
        ),
        ("https://docs.example.org/source/docs/", None),
    ],
)
def test_the_header_links_to_the_repository_the_edit_links_point_into(
    edit_uri: str, repository: tuple[str, str] | None
) -> None:
    assert repository_of(edit_uri) == repository
    config: dict[str, str] = {}
    set_repository(config, edit_uri)
    assert config == ({"repo_url": repository[0], "repo_name": repository[1]} if repository else {})
    mine = {"repo_url": "https://example.org/mine"}
    set_repository(mine, edit_uri)
    assert mine == {"repo_url": "https://example.org/mine"}, "a repo_url the project set is kept"
