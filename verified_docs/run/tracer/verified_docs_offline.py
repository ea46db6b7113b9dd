"""Keep a snippet process offline: only loopback is reachable (the mock model, local servers
of its own). Anything else fails at once with a message the runner recognises, before a
packet leaves.

A top-level module of the tracer's folder (imported by ``sitecustomize``, never from the
``verified_docs`` package). ``verify.evidence`` reads :data:`OFFLINE_MARK`'s message back.
"""

from __future__ import annotations

from typing import Any

OFFLINE_MARK = "verified_docs: offline:"
_LOOPBACK = {"127.0.0.1", "::1", "localhost", "", None}


def _refuse_remote(host) -> None:
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if host in _LOOPBACK or (isinstance(host, str) and host.startswith("127.")):
        return
    raise ConnectionRefusedError(
        f"{OFFLINE_MARK} this snippet tried to reach {host!r}; snippets may only talk to the mock model on 127.0.0.1"
    )


def go_offline() -> None:
    """Refuse, in this process, every connection and name lookup that is not loopback."""
    import socket

    real_connect, real_connect_ex, real_getaddrinfo = (
        socket.socket.connect,
        socket.socket.connect_ex,
        socket.getaddrinfo,
    )

    def connect(self, address):
        if self.family in (socket.AF_INET, socket.AF_INET6):
            _refuse_remote(address[0])
        return real_connect(self, address)

    def connect_ex(self, address):
        if self.family in (socket.AF_INET, socket.AF_INET6):
            _refuse_remote(address[0])
        return real_connect_ex(self, address)

    def getaddrinfo(host, *args, **kwargs):
        _refuse_remote(host)
        return real_getaddrinfo(host, *args, **kwargs)

    sockets: Any = socket.socket  # its methods are replaced here, for every socket of the process
    sockets.connect, sockets.connect_ex = connect, connect_ex
    socket.getaddrinfo = getaddrinfo
