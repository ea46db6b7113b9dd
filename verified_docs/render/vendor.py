"""Third-party browser scripts the site serves itself, so it makes no request to a CDN.

Material draws Mermaid diagrams with the global ``mermaid`` when a page has one, and fetches
``mermaid.min.js`` from unpkg.com only when it has not; the site loads a copy from its own
origin first (``extra_javascript`` in ``mkdocs.yml``). The copy comes from the npm registry,
pinned: the release tarball must have the registry's ``integrity`` (SHA-512, what npm checks)
and the file taken from it the SHA-256 recorded here. It is fetched once into
``build/vendor/`` (not committed: 3.5 MB of minified code nobody reviews, while these lines
say exactly which bytes it must be) and every build checks it again.

Upgrading: pick a release Material supports (its bundle names ``mermaid@11``), then
``npm view mermaid@X.Y.Z dist.tarball dist.integrity`` and ``npm pack mermaid@X.Y.Z``, take
``package/dist/mermaid.min.js`` from the tarball and record its ``sha256sum`` below.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import tarfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from verified_docs.errors import VerifiedDocsError
from verified_docs.files import write_atomic

VENDOR_DIR = Path("build") / "vendor"
# Where to keep fetched assets instead of <root>/build/vendor: the tests build many throwaway
# projects, which share the checkout's copy this way instead of fetching 18 MB each.
VENDOR_ENV = "VERIFIED_DOCS_VENDOR"


@dataclass(frozen=True)
class Asset:
    """One file of a registry package: ``package`` at ``version``, ``member`` inside its
    tarball (at ``tarball``, whose npm ``integrity`` is ``sha512-<base64>``), which must
    hash to ``sha256``; published at ``site_path``, with the package's ``license`` member
    beside it."""

    package: str
    version: str
    tarball: str
    integrity: str
    member: str
    sha256: str
    site_path: str
    license: str = "package/LICENSE"

    @property
    def folder(self) -> str:
        return f"{self.package}-{self.version}"


MERMAID = Asset(
    package="mermaid",
    version="11.17.2",
    tarball="https://registry.npmjs.org/mermaid/-/mermaid-11.17.2.tgz",
    integrity="sha512-V6K3C8EBdEsPFZXSKMJe6ppQOENxuHARr9GvHX4hh47lAbhMRD9qf4oEK7LoaRQxULMa80/qt5gHO73aCleBBg==",
    member="package/dist/mermaid.min.js",
    sha256="581ed7d74bd9048d0e3a91363927d72ef22942d7722546b27f7cc29e35390eb8",
    site_path="javascripts/vendor/mermaid.min.js",
)


class VendorError(VerifiedDocsError):
    """An asset could not be fetched or is not the pinned bytes; the message says which and how to fix it."""


def _download(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as response:  # noqa: S310 (a pinned https URL)
        return response.read()


def unpack(asset: Asset, tarball: bytes) -> dict[str, bytes]:
    """The asset's file and its licence from ``tarball``, keyed by member name, after checking
    the tarball's integrity and the file's SHA-256. Raises :class:`VendorError` otherwise."""
    algorithm, _, expected = asset.integrity.partition("-")
    got = base64.b64encode(hashlib.new(algorithm, tarball).digest()).decode()
    if got != expected:
        raise VendorError(f"{asset.tarball}: integrity: expected {asset.integrity}, got {algorithm}-{got}")
    out = {}
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as tar:
        for name in (asset.member, asset.license):
            try:
                member = tar.extractfile(name)
            except KeyError:
                member = None
            if member is None:
                raise VendorError(f"{asset.tarball}: no file {name} in the tarball")
            out[name] = member.read()
    digest = hashlib.sha256(out[asset.member]).hexdigest()
    if digest != asset.sha256:
        raise VendorError(f"{asset.tarball}: {asset.member}: sha256: expected {asset.sha256}, got {digest}")
    return out


def ensure(asset: Asset, root: Path, download: Callable[[str], bytes] = _download) -> tuple[Path, Path]:
    """The asset's file and licence under ``root/build/vendor/<package>-<version>/`` (or the
    folder ``VERIFIED_DOCS_VENDOR`` names instead of ``root/build/vendor``), fetched with
    ``download`` (an HTTPS GET) when missing or not the pinned bytes. Raises
    :class:`VendorError` naming the URL when it cannot be fetched or does not check out."""
    folder = Path(os.environ.get(VENDOR_ENV) or Path(root) / VENDOR_DIR) / asset.folder
    target, licence = folder / Path(asset.member).name, folder / Path(asset.license).name
    if target.is_file() and licence.is_file() and hashlib.sha256(target.read_bytes()).hexdigest() == asset.sha256:
        return target, licence
    try:
        tarball = download(asset.tarball)
    except (urllib.error.URLError, OSError) as e:
        raise VendorError(
            f"cannot fetch {asset.package} {asset.version} from {asset.tarball}: {e}; the site "
            f"serves it itself (no CDN), so the first build needs the npm registry, or put "
            f"{asset.member} of that tarball at {target} (sha256 {asset.sha256})"
        ) from None
    files = unpack(asset, tarball)
    write_atomic(target, files[asset.member])
    write_atomic(licence, files[asset.license])
    return target, licence
