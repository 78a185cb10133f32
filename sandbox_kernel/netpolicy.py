"""Network allow-lists: parsing, narrowing, and which resolved addresses may be reached.

The admin's list (``Policy.network``) is the ceiling; a cell may only narrow it. Names are
resolved once by the proxy and the connection goes to the resolved address, which must be a
public one: loopback, private, link-local, multicast, reserved and the host's own addresses
(v4 and v6, mapped and embedded forms too) are refused unless the list names that exact address.
"""
from __future__ import annotations

import ipaddress
import re
from pathlib import Path

from .chars import isdigits

DEFAULT_PORTS = (80, 443)
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_HOST_RE = re.compile(r"(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


def parse_address(text: str) -> IPAddress | None:
    """An IP literal (``[v6]`` brackets allowed), mapped forms unwrapped; None for a name."""
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    try:
        addr = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        return addr.ipv4_mapped
    return addr


class AllowRule:
    """``host`` (ports 80 and 443), ``host:port``, ``*.domain`` (any subdomain of domain),
    an IP address ``10.0.0.5:8080`` / ``[::1]:8080`` (that exact address). ``default_ports``
    are the ports of a rule that names none (a secret's hosts default to 443 only)."""

    def __init__(self, text: str, default_ports: tuple[int, ...] = DEFAULT_PORTS) -> None:
        self.text = text.strip()
        host, port = _split_rule(self.text)
        self.address = parse_address(host)
        if self.address is None and not _HOST_RE.fullmatch(host):
            raise ValueError(f"invalid host pattern '{text}'")
        if port is not None and (not isdigits(port) or not 1 <= int(port) <= 65535):
            raise ValueError(f"invalid port in '{text}'")
        self.host = str(self.address) if self.address is not None else host.lower()
        self.ports = (int(port),) if port is not None else default_ports
        self.wildcard = self.address is None and self.host.startswith("*.")

    def matches_host(self, host: str) -> bool:
        addr = parse_address(host)
        if self.address is not None or addr is not None:
            return addr is not None and addr == self.address
        host = host.lower().rstrip(".")
        if self.wildcard:
            return host.endswith(self.host[1:]) and len(host) > len(self.host) - 1
        return host == self.host

    def matches(self, host: str, port: int) -> bool:
        return port in self.ports and self.matches_host(host)

    def covers_host(self, other: "AllowRule") -> bool:
        """Whether every host ``other`` names is one this rule names."""
        if self.address is not None or other.address is not None:
            return self.address == other.address
        if not self.wildcard:
            return not other.wildcard and other.host == self.host
        if other.wildcard:
            return other.host == self.host or other.host.endswith(self.host[1:])
        return self.matches_host(other.host)

    def __repr__(self) -> str:
        return f"AllowRule({self.text!r})"


def _split_rule(text: str) -> tuple[str, str | None]:
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        return host, rest[1:] if rest.startswith(":") else None
    if text.count(":") == 1:
        host, _, port = text.partition(":")
        return host, port
    return text, None


def parse_allow_list(spec: str, default_ports: tuple[int, ...] = DEFAULT_PORTS) -> list[AllowRule]:
    """``allow:a.org,*.b.org:8443`` -> rules; raises ValueError."""
    if not spec.startswith("allow:"):
        raise ValueError("network must be 'none' or 'allow:HOST[,HOST...]'")
    items = [s for s in spec[len("allow:"):].split(",") if s.strip()]
    if not items:
        raise ValueError("network=allow: needs at least one host")
    return [AllowRule(s, default_ports) for s in items]


def check_narrower(spec: str, ceiling: str) -> None:
    """Raise ValueError unless network ``spec`` allows nothing that ``ceiling`` does not."""
    if spec == "none":
        return
    rules = parse_allow_list(spec)
    if ceiling == "none":
        raise ValueError("this kernel has no network (the admin's policy is network=none)")
    check_within(rules, ceiling)


def check_within(rules: list[AllowRule], ceiling: str) -> None:
    """Raise ValueError unless every host and port of ``rules`` is allowed by ``ceiling``."""
    limit = parse_allow_list(ceiling)
    for rule in rules:
        for port in rule.ports:
            if not any(port in c.ports and c.covers_host(rule) for c in limit):
                raise ValueError(f"'{rule.text}' is not within the admin's allow-list "
                                 f"({ceiling[len('allow:'):]})")


def is_public(addr: IPAddress) -> bool:
    """A globally routable unicast address (also for the v4 address inside v6 forms)."""
    if isinstance(addr, ipaddress.IPv6Address):
        inner = addr.ipv4_mapped or addr.sixtofour or (addr.teredo[1] if addr.teredo else None)
        if inner is None and addr in _NAT64:
            inner = ipaddress.IPv4Address(int(addr) & 0xFFFFFFFF)
        if inner is not None and not is_public(inner):
            return False
    return addr.is_global and not addr.is_multicast and not addr.is_reserved


def host_addresses() -> set[IPAddress]:
    """This host's own interface addresses (Linux /proc), which reach its services too."""
    found: set[IPAddress] = set()
    try:  # local routes: "|-- 10.1.2.3" followed by "/32 host LOCAL"
        lines = Path("/proc/net/fib_trie").read_text().splitlines()
        for previous, line in zip(lines, lines[1:]):
            if "/32 host LOCAL" in line:
                addr = parse_address(previous.strip().lstrip("|-+ "))
                if addr is not None:
                    found.add(addr)
    except OSError:
        pass
    try:
        for line in Path("/proc/net/if_inet6").read_text().splitlines():
            raw = line.split()[0]
            found.add(ipaddress.IPv6Address(int(raw, 16)))
    except (OSError, ValueError, IndexError):
        pass
    return found


def reachable(addr: IPAddress, port: int, rules: list[AllowRule], own: set[IPAddress]) -> bool:
    """Whether the proxy may connect to ``addr``: public and not the host's own, or listed
    exactly by a rule."""
    if any(r.address == addr and port in r.ports for r in rules):
        return True
    return is_public(addr) and addr not in own
