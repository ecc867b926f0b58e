"""The table's connection to the MQTT broker (Eclipse paho-mqtt), kept up by itself.

``Link`` connects in the background, subscribes again after every reconnect, publishes with
QoS 1 (at least once: the log's ``Inbox`` makes duplicates harmless) and says whether it is
connected and since when it is not, for the panel's "waiting for Ben's table (offline 12 s)".
Its socket sends every message at once (``TCP_NODELAY``): paho leaves Nagle's algorithm on,
which held each small message back until the broker had acknowledged the one before and made
a remote action take three times as long (bench/bench_network_latency.py).
A broker is named as in the config's ``[network] broker``: ``mqtt://HOST[:PORT]`` or
``mqtts://USER:PASSWORD@HOST[:PORT]`` (TLS with the system's certificates, and a login).
"""

from __future__ import annotations

import logging
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

import paho.mqtt.client as mqtt

log = logging.getLogger(__name__)

Handler = Callable[[str, bytes], None]

KEEPALIVE = 5
"""Seconds between pings: the broker tells the other tables that this one went away without
a word (its last will) after about one and a half times this."""


class BadBroker(ValueError):
    """A broker address the table cannot use."""


@dataclass(frozen=True)
class Broker:
    host: str
    port: int
    tls: bool
    username: str | None = None
    password: str | None = None
    ca: str | None = None
    """A CA certificate file that signed the broker's (a broker with its own CA); None: the
    system's certificates."""


def parse_broker(url: str, ca: str | None = None) -> Broker:
    """``mqtt://host:1883`` or ``mqtts://user:password@host:8883`` (``BadBroker`` otherwise);
    ``ca``: the CA certificate file of a TLS broker with its own CA."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
        raise BadBroker(f"a broker is mqtt://HOST:PORT or mqtts://USER:PASSWORD@HOST:PORT, "
                        f"not {url!r}")
    tls = parts.scheme == "mqtts"
    try:
        port = parts.port or (8883 if tls else 1883)
    except ValueError as e:
        raise BadBroker(f"the broker's port is not a number: {url!r}") from e
    return Broker(parts.hostname, port, tls,
                  unquote(parts.username) if parts.username else None,
                  unquote(parts.password) if parts.password else None, ca or None)


class Link:
    """One client of the broker: subscriptions kept across reconnects, messages handed to
    ``handler(topic, payload)`` on paho's thread."""

    def __init__(self, broker: Broker, client_id: str, handler: Handler,
                 clock: Callable[[], float] = time.monotonic, clean: bool = False) -> None:
        self._broker = broker
        self._handler = handler
        self._clock = clock
        self._topics: set[str] = set()
        self._connected_hooks: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self.connected = threading.Event()
        self.offline_since: float | None = clock()
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                             clean_session=clean, protocol=mqtt.MQTTv311)
        if broker.username is not None:
            client.username_pw_set(broker.username, broker.password)
        if broker.tls:
            client.tls_set(ca_certs=broker.ca, cert_reqs=ssl.CERT_REQUIRED)
        client.reconnect_delay_set(min_delay=1, max_delay=8)
        client.on_socket_open = self._on_socket_open
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self._client = client

    def start(self) -> None:
        """Connect in the background (and again whenever the broker goes away)."""
        self._client.connect_async(self._broker.host, self._broker.port, keepalive=KEEPALIVE)
        self._client.loop_start()

    def stop(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    def will(self, topic: str, payload: bytes) -> None:
        """What the broker publishes (retained) when this table goes away without a word;
        set before ``start``."""
        self._client.will_set(topic, payload, qos=1, retain=True)

    def on_connected(self, hook: Callable[[], None]) -> None:
        """Call ``hook`` (on paho's thread) after every connect, once subscribed again."""
        self._connected_hooks.append(hook)

    def off_connected(self, hook: Callable[[], None]) -> None:
        """``hook`` is not called any more."""
        if hook in self._connected_hooks:
            self._connected_hooks.remove(hook)

    def subscribe(self, topic: str) -> None:
        with self._lock:
            self._topics.add(topic)
        if self.connected.is_set():
            self._client.subscribe(topic, qos=1)

    def unsubscribe(self, topic: str) -> None:
        """No more messages on ``topic`` (after a reconnect either)."""
        with self._lock:
            self._topics.discard(topic)
        if self.connected.is_set():
            self._client.unsubscribe(topic)

    def publish(self, topic: str, payload: bytes, retain: bool = False,
                wait: float = 0.0) -> None:
        """Send with QoS 1; while offline paho queues it and sends it after the reconnect.
        ``wait``: up to so many seconds for the broker to have it (before letting go)."""
        info = self._client.publish(topic, payload, qos=1, retain=retain)
        if wait and self.connected.is_set():
            try:
                info.wait_for_publish(wait)
            except (RuntimeError, ValueError):  # not sent: the broker went away meanwhile
                log.info("could not send on %s before letting go", topic)

    def offline_seconds(self) -> float:
        since = self.offline_since
        return 0.0 if since is None else self._clock() - since

    # --- paho's callbacks (its network thread) --------------------------------------------

    @staticmethod
    def _on_socket_open(_client: mqtt.Client, _userdata: object, sock: object) -> None:
        """Every new connection sends each message at once (see the module docstring)."""
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # type: ignore[attr-defined]
        except (AttributeError, OSError) as e:  # not a TCP socket: nothing to change
            log.debug("TCP_NODELAY not set: %s", e)

    def _on_connect(self, client: mqtt.Client, _userdata: object, _flags: object,
                    reason: object, _properties: object = None) -> None:
        if getattr(reason, "is_failure", False):
            log.warning("the broker refused the table: %s", reason)
            return
        with self._lock:
            topics = sorted(self._topics)
        for topic in topics:
            client.subscribe(topic, qos=1)
        self.offline_since = None
        self.connected.set()
        for hook in list(self._connected_hooks):
            try:
                hook()
            except Exception:  # a hook's failure never stops the link
                log.exception("after connecting")

    def _on_disconnect(self, _client: mqtt.Client, _userdata: object, _flags: object,
                       reason: object, _properties: object = None) -> None:
        if self.connected.is_set():
            log.info("lost the broker: %s", reason)
        self.connected.clear()
        if self.offline_since is None:
            self.offline_since = self._clock()

    def _on_message(self, _client: mqtt.Client, _userdata: object,
                    message: mqtt.MQTTMessage) -> None:
        try:
            self._handler(message.topic, bytes(message.payload))
        except Exception:  # one bad message never stops the link
            log.exception("a message on %s could not be handled", message.topic)
