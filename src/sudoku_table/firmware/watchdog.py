"""systemd's notify protocol: tell the service manager we are ready and still alive.

``notify("READY=1")`` once started, ``notify("WATCHDOG=1")`` at least every half of
``$WATCHDOG_USEC``. Each message is one datagram to the unix socket named by ``$NOTIFY_SOCKET``
(a name starting with ``@`` is in the abstract namespace). Without ``$NOTIFY_SOCKET`` (not under
systemd) nothing is sent; a failure to send is logged, never raised, since a missing heartbeat
is exactly what the watchdog exists to notice.
"""

from __future__ import annotations

import logging
import os
import socket

from .exc import NotifyError

log = logging.getLogger(__name__)

ENV_VAR = "NOTIFY_SOCKET"


def socket_address(name: str) -> str | bytes:
    """The address for a ``$NOTIFY_SOCKET`` value (abstract names start with ``@``)."""
    if name.startswith("@"):
        return b"\0" + name[1:].encode()
    return name


def notify(message: str, socket_name: str | None = None) -> bool:
    """Send ``message`` (e.g. ``READY=1``); True when sent, False when not under systemd or
    the send failed."""
    if not isinstance(message, str) or not message:
        raise NotifyError(f"a notify message must be a non-empty string, got {message!r}")
    name = socket_name if socket_name is not None else os.environ.get(ENV_VAR, "")
    if not name:
        return False
    if not (name.startswith("/") or name.startswith("@")):
        log.warning("ignoring %s=%r: neither a path nor an abstract name", ENV_VAR, name)
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(socket_address(name))
            sock.sendall(message.encode())
    except OSError as e:
        log.warning("cannot notify systemd (%s): %s", message, e)
        return False
    return True
