"""vendor: the bundled Mermaid script is fetched once, only as the pinned bytes, and kept."""

from __future__ import annotations

import base64
import hashlib
import io
import tarfile
import urllib.error
from dataclasses import replace
from pathlib import Path

import pytest

from verified_docs.render import vendor

SCRIPT = b"window.mermaid = {};\n"


def tarball(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def asset_for(blob: bytes, script: bytes = SCRIPT) -> vendor.Asset:
    integrity = "sha512-" + base64.b64encode(hashlib.sha512(blob).digest()).decode()
    return replace(
        vendor.MERMAID,
        version="0.0.1",
        tarball="https://registry.example/m-0.0.1.tgz",
        integrity=integrity,
        sha256=hashlib.sha256(script).hexdigest(),
    )


GOOD = tarball({"package/dist/mermaid.min.js": SCRIPT, "package/LICENSE": b"MIT\n"})


def test_the_pinned_file_is_fetched_once_then_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(vendor.VENDOR_ENV, raising=False)
    asked: list[str] = []

    def download(url: str) -> bytes:
        asked.append(url)
        return GOOD

    asset = asset_for(GOOD)
    script, licence = vendor.ensure(asset, tmp_path, download)
    assert script == tmp_path / "build/vendor/mermaid-0.0.1/mermaid.min.js"
    assert script.read_bytes() == SCRIPT and licence.read_bytes() == b"MIT\n"
    assert vendor.ensure(asset, tmp_path, download) == (script, licence)
    assert asked == ["https://registry.example/m-0.0.1.tgz"]
    script.write_bytes(b"edited")  # not the pinned bytes any more: fetched again
    vendor.ensure(asset, tmp_path, download)
    assert script.read_bytes() == SCRIPT and len(asked) == 2


def test_a_tarball_that_is_not_the_pinned_one_is_refused() -> None:
    asset = asset_for(GOOD)
    other = tarball({"package/dist/mermaid.min.js": b"evil()", "package/LICENSE": b"MIT\n"})
    with pytest.raises(vendor.VendorError) as e:
        vendor.unpack(asset, other)
    got = base64.b64encode(hashlib.sha512(other).digest()).decode()
    assert (
        str(e.value) == f"https://registry.example/m-0.0.1.tgz: integrity: expected {asset.integrity}, got sha512-{got}"
    )
    # The registry's integrity holds, but the file inside is not the one recorded.
    with pytest.raises(vendor.VendorError) as e:
        vendor.unpack(replace(asset_for(other), sha256=asset.sha256), other)
    assert str(e.value) == (
        f"https://registry.example/m-0.0.1.tgz: package/dist/mermaid.min.js: sha256: expected "
        f"{asset.sha256}, got {hashlib.sha256(b'evil()').hexdigest()}"
    )
    bare = tarball({"package/dist/mermaid.min.js": SCRIPT})
    with pytest.raises(vendor.VendorError, match=r"^https://registry.example/m-0.0.1.tgz: no file package/LICENSE"):
        vendor.unpack(asset_for(bare), bare)


def test_offline_says_what_to_fetch_and_where_to_put_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(vendor.VENDOR_ENV, str(tmp_path / "shared"))

    def offline(url: str) -> bytes:
        raise urllib.error.URLError("no route to host")

    asset = asset_for(GOOD)
    with pytest.raises(vendor.VendorError) as e:
        vendor.ensure(asset, tmp_path / "project", offline)
    assert str(e.value) == (
        "cannot fetch mermaid 0.0.1 from https://registry.example/m-0.0.1.tgz: <urlopen error no route to host>; "
        "the site serves it itself (no CDN), so the first build needs the npm registry, or put "
        f"package/dist/mermaid.min.js of that tarball at {tmp_path / 'shared/mermaid-0.0.1/mermaid.min.js'} "
        f"(sha256 {asset.sha256})"
    )


def test_the_site_loads_the_script_from_where_the_hook_publishes_it() -> None:
    # The browser test proves no page asks a CDN; this says which line of mkdocs.yml does it.
    config = (Path(__file__).parents[1] / "mkdocs.yml").read_text(encoding="utf-8")
    assert "extra_javascript:\n  - javascripts/search-hit-tab.js\n" in config
    assert f"\n  - {vendor.MERMAID.site_path}\n" in config
