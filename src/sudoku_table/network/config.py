"""The ``[network]`` section of the table's config: the MQTT broker through which tables meet,
and the name this table shows at the others."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, Strict, field_validator

from sudoku_table.sections import Says, Section

from .link import BadBroker, Broker, parse_broker


class NetworkConfig(Section):
    """Tables connected through a broker."""

    broker: Annotated[str, Strict(), Field(max_length=300),
                      Says("must be mqtt://HOST:PORT or mqtts://USER:PASSWORD@HOST:PORT",
                           always=True)] = ""
    """The MQTT broker (``mqtt://127.0.0.1:1883``; ``mqtts://USER:PASSWORD@HOST:8883`` for
    TLS with a login); empty: this table plays alone (no remote seats, no Join a game)."""
    ca: Annotated[str, Strict(), Field(max_length=300),
                  Says("must be the path of a CA certificate file", always=True)] = ""
    """For an ``mqtts://`` broker whose certificate is signed by a CA of its own: that CA's
    certificate file (PEM); empty: the system's certificates."""
    name: Annotated[str, Strict(), Field(min_length=1, max_length=40),
                    Says("must be a name of 1 to 40 characters", always=True)] = "Sudoku Table"
    """This table's name as the other tables show it ("Ben's table")."""
    club: Annotated[str, Strict(), Field(max_length=200),
                    Says("must be the club's secret words (up to 200 characters)",
                         always=True)] = ""
    """A club's secret words, the same at every table of the club (empty: none). With a club,
    every game this table hosts is announced to the club's page on the broker (sealed with
    the club's key), where it can be watched live, and stays listed with its record after."""

    @field_validator("broker", mode="after")
    @classmethod
    def _a_broker(cls, broker: str) -> str:
        if broker:
            try:
                parse_broker(broker)
            except BadBroker as e:
                raise ValueError(str(e)) from None
        return broker

    def parsed(self) -> Broker | None:
        """The broker, or None when none is set."""
        return parse_broker(self.broker, self.ca) if self.broker else None
