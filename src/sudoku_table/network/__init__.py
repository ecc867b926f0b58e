"""Tables connected through an MQTT broker: remote seats, watching, clubs (docs/network.md).

``codes`` makes and reads the codes a table hands to another (what finds a game on the broker
and the keys that protect it); ``sealing`` seals and opens every message (encrypted for the
game, signed by the host, a seat's proposals authenticated by that seat's key, replays
refused); ``log`` keeps the game's ordered actions as each table applies them; ``link`` is the
connection to the broker (Eclipse paho-mqtt).
"""
