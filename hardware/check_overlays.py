"""Which GPIOs compiled device-tree overlays claim, read from the overlays themselves.

The installer writes ``dtoverlay=spi0-0cs`` (and ``dtoverlay=max98357a,no-sdmode`` for the I2S
speaker) into ``config.txt``, and refuses other lines by the pin table of
``src/sudoku_table/firmware/bootconfig.py``. This reads the overlays' compiled form (the
``.dtbo`` files in ``/boot/firmware/overlays`` on a Pi, or ones compiled with ``dtc -@`` from
the sources in Raspberry Pi's kernel tree, ``arch/arm/boot/dts/overlays``), applies the
parameters given as the firmware does (fragments switched on and off, cells overwritten),
and lists the pins the active fragments take:

- ``*-gpios`` properties that point at the GPIO controller (the cell after the phandle);
- ``brcm,pins`` of fragments that target a pin group;
- the pin groups of the controllers the overlay switches on (``i2s``: GPIO18-21; ``spi0``: its
  data pins 9-11 and chip selects 8 and 7, unless fragments change those groups), taken from
  the Pi's base device trees (``bcm2711-rpi-ds.dtsi``, ``bcm270x.dtsi``; the Pi 5's RP1 puts
  the same functions on the same header pins).

Then it compares them with ``bootconfig.py``'s table and with the table's pins::

    python3 hardware/check_overlays.py /boot/firmware/overlays/spi0-0cs.dtbo \
        /boot/firmware/overlays/max98357a.dtbo:no-sdmode [--config /etc/sudoku-table/table.toml]

Exit status 1 when an overlay claims a pin of the table, or claims other pins than the table
says it does. Standard library only.
"""

from __future__ import annotations

import argparse
import struct
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src" / "sudoku_table" / "firmware"))
import bootconfig  # noqa: E402  (stdlib-only; loaded by path, like the installer runs it)

FDT_MAGIC = 0xD00DFEED
BEGIN_NODE, END_NODE, PROP, NOP, END = 1, 2, 3, 4, 9

BASE_GROUPS: dict[str, tuple[str, ...]] = {"i2s": ("i2s_pins",),
                                           "spi0": ("spi0_pins", "spi0_cs_pins")}
"""The pin groups a controller takes when an overlay switches it on (its pinctrl-0)."""
PIN_GROUPS: dict[str, tuple[int, ...]] = {"i2s_pins": (18, 19, 20, 21),
                                          "spi0_pins": (9, 10, 11),
                                          "spi0_cs_pins": (8, 7)}
"""The base trees' pin groups (``brcm,pins``)."""


@dataclass
class Node:
    name: str
    props: dict[str, bytes] = field(default_factory=dict)
    children: dict[str, Node] = field(default_factory=dict)

    def find(self, path: str) -> Node | None:
        node: Node | None = self
        for part in [p for p in path.split("/") if p]:
            node = node.children.get(part) if node is not None else None
        return node


def read_fdt(data: bytes) -> Node:
    """A flattened device tree (a .dtb or .dtbo) as nodes."""
    magic, _size, off_struct, off_strings = struct.unpack_from(">IIII", data, 0)
    if magic != FDT_MAGIC:
        raise ValueError("not a flattened device tree (.dtb/.dtbo)")
    pos = off_struct
    stack: list[Node] = []
    root: Node | None = None
    while True:
        (token,) = struct.unpack_from(">I", data, pos)
        pos += 4
        if token == BEGIN_NODE:
            end = data.index(b"\0", pos)
            node = Node(data[pos:end].decode())
            pos = (end + 4) & ~3
            if stack:
                stack[-1].children[node.name] = node
            else:
                root = node
            stack.append(node)
        elif token == END_NODE:
            stack.pop()
        elif token == PROP:
            length, name_off = struct.unpack_from(">II", data, pos)
            pos += 8
            name_end = data.index(b"\0", off_strings + name_off)
            name = data[off_strings + name_off:name_end].decode()
            stack[-1].props[name] = data[pos:pos + length]
            pos = (pos + length + 3) & ~3
        elif token == NOP:
            continue
        elif token == END:
            break
        else:
            raise ValueError(f"bad token {token} in the device tree")
    if root is None:
        raise ValueError("an empty device tree")
    return root


def strings(value: bytes) -> list[str]:
    return [s.decode() for s in value.split(b"\0") if s]


@dataclass
class Overlay:
    """An overlay with its parameters applied."""

    tree: Node
    active: dict[str, bool]
    """fragment name -> applied (``__overlay__``) or not (``__dormant__`` or switched off)."""

    @classmethod
    def load(cls, data: bytes, params: dict[str, str]) -> Overlay:
        tree = read_fdt(data)
        active = {name: "__overlay__" in node.children
                  for name, node in tree.children.items() if name.startswith("fragment@")}
        overlay = cls(tree, active)
        for param, value in params.items():
            overlay.apply(param, value)
        return overlay

    def apply(self, param: str, value: str) -> None:
        """Apply a parameter as the firmware does: fragment switches (``+N``, ``-N``, ``=N``)
        or a cell overwritten at an offset (``prop:offset``) in the node a phandle names."""
        overrides = self.tree.children.get("__overrides__")
        if overrides is None or param not in overrides.props:
            raise ValueError(f"the overlay has no parameter {param!r}")
        raw = overrides.props[param]
        truth = value.lower() not in {"off", "false", "no", "0", "n"}
        while raw:
            (phandle,) = struct.unpack_from(">I", raw, 0)
            text_end = raw.index(b"\0", 4)
            spec = raw[4:text_end].decode()
            raw = raw[text_end + 1:]
            if phandle == 0:
                self._switch(spec, truth)
            else:
                self._overwrite(phandle, spec, value)

    def _switch(self, spec: str, truth: bool) -> None:
        i = 0
        while i < len(spec):
            op = spec[i]
            j = i + 1
            while j < len(spec) and spec[j].isdigit():
                j += 1
            name = f"fragment@{spec[i + 1:j]}"
            if op == "+":
                self.active[name] = truth
            elif op == "-":
                self.active[name] = not truth
            elif op == "=":
                self.active[name] = truth
            i = j

    def _overwrite(self, phandle: int, spec: str, value: str) -> None:
        prop, _, offset = spec.partition(":")
        for node in self._nodes(self.tree):
            if struct.unpack(">I", node.props.get("phandle", b"\0\0\0\0"))[0] == phandle:
                data = bytearray(node.props[prop])
                struct.pack_into(">I", data, int(offset), int(value, 0))
                node.props[prop] = bytes(data)
                return
        raise ValueError(f"no node with phandle {phandle}")

    def _nodes(self, node: Node) -> list[Node]:
        found = [node]
        for child in node.children.values():
            found += self._nodes(child)
        return found

    def fixups(self) -> dict[tuple[str, str], str]:
        """(node path, property) -> the base tree's label it points at."""
        table: dict[tuple[str, str], str] = {}
        fixups = self.tree.children.get("__fixups__")
        for label, value in (fixups.props.items() if fixups else []):
            for where in strings(value):
                path, prop, _offset = where.rsplit(":", 2)
                table[(path, prop)] = label
        return table

    def claimed(self) -> set[int]:
        """The GPIOs the active fragments take."""
        fixups = self.fixups()
        groups: dict[str, tuple[int, ...]] = dict(PIN_GROUPS)
        enabled: set[str] = set()
        pins: set[int] = set()
        for name, node in self.tree.children.items():
            if not self.active.get(name):
                continue
            body = node.children.get("__overlay__") or node.children.get("__dormant__")
            target = fixups.get((f"/{name}", "target"))
            if body is None:
                continue
            if target in PIN_GROUPS and "brcm,pins" in body.props:
                raw = body.props["brcm,pins"]
                groups[target] = struct.unpack(f">{len(raw) // 4}I", raw)
            if target in BASE_GROUPS and body.props.get("status", b"").startswith(b"okay"):
                enabled.add(target)
            pins |= self._gpios(body, fixups, name)
        for controller in enabled:
            for group in BASE_GROUPS[controller]:
                pins |= set(groups[group])
        return pins

    def _gpios(self, node: Node, fixups: dict[tuple[str, str], str],
               fragment: str) -> set[int]:
        """The pins of the ``*-gpios`` properties under a fragment that point at the GPIO
        controller (the overlay's fixups name it ``gpio``)."""
        pins: set[int] = set()
        body_name = "__overlay__" if "__overlay__" in self.tree.children[fragment].children \
            else "__dormant__"

        def walk(current: Node, path: str) -> None:
            for prop, raw in current.props.items():
                if prop.endswith("-gpios") and fixups.get((path, prop)) == "gpio":
                    cells = struct.unpack(f">{len(raw) // 4}I", raw)
                    pins.add(cells[1])
            for child_name, child in current.children.items():
                walk(child, f"{path}/{child_name}")

        walk(node, f"/{fragment}/{body_name}")
        return pins


def parse_spec(spec: str) -> tuple[Path, str, dict[str, str]]:
    """``dir/name.dtbo:param[=value],..`` -> the file, the overlay's name and its parameters."""
    path_text, _, param_text = spec.partition(":")
    path = Path(path_text)
    params: dict[str, str] = {}
    for item in [p for p in param_text.split(",") if p]:
        key, _, value = item.partition("=")
        params[key] = value or "on"
    return path, path.name.removesuffix(".dtbo"), params


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("overlays", nargs="+", help="FILE.dtbo[:param[=value],...]")
    parser.add_argument("--config", type=Path, help="the table's table.toml")
    args = parser.parse_args(argv)
    example = ROOT / "src" / "sudoku_table" / "firmware" / "table.example.toml"
    config: dict[str, object] = {}
    if args.config is not None:
        with args.config.open("rb") as f:
            config = tomllib.load(f)
    with example.open("rb") as f:
        table = bootconfig.table_pins(config, tomllib.load(f))
    failed = False
    for spec in args.overlays:
        path, name, params = parse_spec(spec)
        pins = Overlay.load(path.read_bytes(), params).claimed()
        line = "dtoverlay=" + ",".join([name, *[k if v == "on" else f"{k}={v}"
                                                for k, v in params.items()]])
        listed = set(bootconfig.claimed(line))
        taken = sorted(pin for pin in pins if pin in table)
        print(f"{line}: claims {', '.join(f'GPIO{p}' for p in sorted(pins)) or 'nothing'}")
        if listed != pins:
            print(f"  the installer's table says {sorted(listed)}: they differ", file=sys.stderr)
            failed = True
        if taken:
            print(f"  takes the table's {', '.join(f'GPIO{p} ({table[p]})' for p in taken)}",
                  file=sys.stderr)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
