"""systemd notify datagrams."""

from __future__ import annotations

import os
import socket
import uuid
from pathlib import Path

import pytest

from sudoku_table.firmware.watchdog import notify, socket_address


def test_without_notify_socket_nothing_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert notify("READY=1") is False


@pytest.mark.integration
def test_a_path_socket_receives_the_datagram(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(path))
        monkeypatch.setenv("NOTIFY_SOCKET", str(path))
        assert notify("READY=1") is True
        assert notify("WATCHDOG=1") is True
        assert server.recv(64) == b"READY=1"
        assert server.recv(64) == b"WATCHDOG=1"


@pytest.mark.integration
@pytest.mark.skipif(not hasattr(socket, "AF_UNIX") or os.uname().sysname != "Linux",
                    reason="abstract unix sockets exist only on Linux")
def test_an_abstract_socket_name_starts_with_at() -> None:
    name = f"@sudoku-table-test-{uuid.uuid4().hex}"
    assert socket_address(name) == b"\0" + name[1:].encode()
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(socket_address(name))
        assert notify("STATUS=scanning", socket_name=name) is True
        assert server.recv(64) == b"STATUS=scanning"


@pytest.mark.integration
def test_a_failed_send_is_logged_not_raised(tmp_path: Path,
                                            caplog: pytest.LogCaptureFixture) -> None:
    assert notify("READY=1", socket_name=str(tmp_path / "nobody-listens")) is False
    assert "cannot notify systemd" in caplog.text
    assert notify("READY=1", socket_name="relative/name") is False


def test_an_empty_message_is_refused() -> None:
    with pytest.raises(ValueError, match="non-empty string"):
        notify("")
