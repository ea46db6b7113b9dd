"""Offline for real: the verifying process moves into a network namespace of its own, with only
loopback, before it starts anything.

Everything it starts afterwards inherits the namespace: the mock model (which listens on
127.0.0.1 inside it), the warm worker, every snippet and every process a snippet starts,
whatever its language (``curl``, ``git``, ``npm``): an address outside the machine is
unreachable and a name cannot be resolved. As root the namespace is made directly
(``unshare(CLONE_NEWNET)``); otherwise inside a user namespace that maps the user to itself
(``CLONE_NEWUSER``, like ``unshare -rn`` without becoming root). Where the OS allows neither,
or grants a namespace that cannot be used, :func:`contain` says in one line what stays
uncontained: then only the Python-level block of the tracer's ``sitecustomize`` keeps snippets
offline, and only in Python processes. A network namespace separates networks, not files: a
Unix socket on the file system (a Docker daemon's, say) stays reachable from inside it.

Never used by anything that serves the host (``try --serve``, ``mkdocs serve``): its 127.0.0.1
is not the host's.

Not util-linux ``unshare``: it can only start a program, so the verifier would re-execute itself,
losing its run root (tmproot) and what it did before (tests/test_offline.py fails so).
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import socket
import struct
import threading

from verified_docs.errors import VerifiedDocsError

OFF_ENV = "VERIFIED_DOCS_NETNS"  # "off": do not make a namespace (the warning still says so)
CLONE_NEWNET = 0x40000000
CLONE_NEWUSER = 0x10000000
_SIOCGIFFLAGS, _SIOCSIFFLAGS, _IFF_UP = 0x8913, 0x8914, 0x1

_contained: bool | None = None


class NetnsError(VerifiedDocsError, OSError):
    """The namespace was made but cannot be used (loopback would not come up)."""


def warning(reason: str) -> str:
    """The one line printed when snippets cannot be put in a network namespace."""
    return (
        f"verified_docs: warning: snippets run without a network namespace ({reason}): only their Python "
        "processes are kept offline; a snippet's curl, git or npm could still reach the network"
    )


def _unshare(flags: int) -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    return 0 if libc.unshare(flags) == 0 else ctypes.get_errno()


def _map_self(uid: int, gid: int) -> None:
    """In a fresh user namespace: stay who we are (uid and gid mapped to themselves)."""
    with open("/proc/self/setgroups", "w") as f:
        f.write("deny")
    with open("/proc/self/uid_map", "w") as f:
        f.write(f"{uid} {uid} 1")
    with open("/proc/self/gid_map", "w") as f:
        f.write(f"{gid} {gid} 1")


def _loopback_up() -> None:
    """Bring ``lo`` up: a new network namespace starts with it down."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        request = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(s, _SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(s, _SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | _IFF_UP))


def _enter(uid: int, gid: int) -> str | None:
    """Move this process into a new network namespace with loopback up: None when done, else
    why not (one phrase). As root ``CLONE_NEWNET`` alone, else (or when that is refused) inside
    a user namespace that maps ``uid``/``gid`` to themselves."""
    err = _unshare(CLONE_NEWNET) if uid == 0 else -1
    if err:
        err = _unshare(CLONE_NEWUSER | CLONE_NEWNET)
        if err:
            return (
                f"unshare: {os.strerror(err)}; user namespaces may be disabled "
                "(sysctl kernel.unprivileged_userns_clone or user.max_user_namespaces)"
            )
        try:
            _map_self(uid, gid)
        except OSError as e:
            return f"cannot map the user into its namespace: {e}"
    try:
        _loopback_up()
    except OSError as e:
        return f"cannot bring loopback up in the namespace: {e}"
    return None


def _probe(uid: int, gid: int) -> str | None:
    """:func:`_enter` tried in a forked child first, so that a namespace that is granted but
    unusable (a user namespace whose map is refused, loopback that will not come up, as under
    AppArmor's restriction of unprivileged user namespaces) leaves this process where it was:
    None when the child managed it, else its reason."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: try, say why not, and leave without running any exit handler
        code = 0
        try:
            os.close(r)
            os.write(w, (_enter(uid, gid) or "").encode())
        except BaseException as e:  # noqa: BLE001 -- whatever failed is the reason, reported
            code = 1
            try:
                os.write(w, f"the probe failed: {e!r}".encode())
            except BaseException:  # noqa: BLE001
                pass
        finally:
            os._exit(code)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        reason = f.read().decode(errors="replace")
    _, status = os.waitpid(pid, 0)
    if status != 0:
        return reason or f"the probe for a namespace ended with wait status {status}"
    return reason or None


def contain() -> str | None:
    """Move this process (it must not have started threads yet) into a new network namespace
    with only loopback up; idempotent. A forked probe tries it first (:func:`_probe`), so when
    it cannot work this process stays in the host's namespace. Returns None when contained, else
    the one warning line (:func:`warning`) to print, saying why not. Raises
    :class:`NetnsError` only when the probe succeeded and the same steps then failed here."""
    global _contained
    if _contained is not None:
        return None if _contained else warning("already tried, and failed")
    _contained = False
    if os.environ.get(OFF_ENV) == "off":
        return warning(f"{OFF_ENV}=off")
    if not hasattr(os, "uname") or os.uname().sysname != "Linux":
        return warning("network namespaces are Linux only")
    # unshare() moves only the calling thread; a user namespace refuses a threaded process.
    if threading.active_count() > 1:
        return warning("the process already runs threads, and only a single-threaded one can move")
    uid, gid = os.geteuid(), os.getegid()
    reason = _probe(uid, gid)
    if reason:
        return warning(reason)
    reason = _enter(uid, gid)
    if reason:
        raise NetnsError(
            f"verified_docs: a probe made a network namespace, but this process could not: {reason}; "
            f"set {OFF_ENV}=off to verify without one"
        )
    _contained = True
    return None
