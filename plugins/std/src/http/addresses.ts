// Which IP addresses the http tool may connect to: public unicast only. Every special-purpose
// range of IANA's IPv4 and IPv6 registries is refused by default (the spec's list of
// localhost, 10/8, 172.16/12, 192.168/16 and 169.254.169.254 is a part of it), and IPv6
// outside global unicast 2000::/3 is refused whole, which takes IPv4-mapped, IPv4-compatible
// and other embedded forms of internal IPv4 addresses with it.
import { BlockList, isIP } from "node:net";

interface Range {
  readonly cidr: string;
  /** What the range is, completing "<address> is …". */
  readonly what: string;
  readonly list: BlockList;
  readonly family: "ipv4" | "ipv6";
}

function range(cidr: string, what: string): Range {
  const [network = "", bits = ""] = cidr.split("/");
  const family = network.includes(":") ? "ipv6" : "ipv4";
  const list = new BlockList();
  list.addSubnet(network, Number(bits), family);
  return { cidr, what, list, family };
}

/** The refused ranges, each with the words a refusal uses. */
export const DENIED_RANGES: readonly Range[] = [
  range("0.0.0.0/8", "an unspecified address, 'this network'"),
  range("10.0.0.0/8", "a private address"),
  range("100.64.0.0/10", "a carrier-grade NAT address"),
  range("127.0.0.0/8", "a loopback address of this machine"),
  range("169.254.0.0/16", "a link-local address, the range of the cloud metadata service 169.254.169.254"),
  range("172.16.0.0/12", "a private address"),
  range("192.0.0.0/24", "an IETF protocol address"),
  range("192.0.2.0/24", "a documentation address"),
  range("192.31.196.0/24", "an AS112 service address"),
  range("192.52.193.0/24", "an AMT relay address"),
  range("192.88.99.0/24", "a 6to4 relay address"),
  range("192.168.0.0/16", "a private address"),
  range("192.175.48.0/24", "an AS112 service address"),
  range("198.18.0.0/15", "a benchmarking address"),
  range("198.51.100.0/24", "a documentation address"),
  range("203.0.113.0/24", "a documentation address"),
  range("224.0.0.0/4", "a multicast address"),
  range("240.0.0.0/4", "a reserved or broadcast address"),
  range("::/128", "the unspecified IPv6 address"),
  range("::1/128", "the IPv6 loopback address of this machine"),
  range("::ffff:0:0/96", "an IPv4-mapped IPv6 address"),
  range("::/96", "an IPv4-compatible IPv6 address"),
  range("64:ff9b::/96", "a NAT64 address"),
  range("64:ff9b:1::/48", "a local NAT64 address"),
  range("100::/64", "a discard-only IPv6 address"),
  range("2001::/23", "an IETF protocol IPv6 address, Teredo among them"),
  range("2001:db8::/32", "a documentation IPv6 address"),
  range("2002::/16", "a 6to4 IPv6 address"),
  range("3fff::/20", "a documentation IPv6 address"),
  range("5f00::/16", "an SRv6 segment address"),
  range("fc00::/7", "a unique local IPv6 address, private to a site"),
  range("fe80::/10", "a link-local IPv6 address"),
  range("fec0::/10", "a site-local IPv6 address"),
  range("ff00::/8", "a multicast IPv6 address"),
];

const GLOBAL_UNICAST = range("2000::/3", "");

/**
 * What `address` (an IP address, as DNS or the URL parser writes it) is when it must not be
 * reached, as a phrase completing "<address> is …"; undefined for a public unicast address.
 * @example addressProblem("10.1.2.3") // "a private address (10.0.0.0/8)"
 */
export function addressProblem(address: string): string | undefined {
  const bare = address.replace(/^\[(.*)\]$/, "$1");
  if (bare.includes("%")) return "a scoped IPv6 address, whose zone index names a local interface";
  const version = isIP(bare);
  if (version === 0) return "not an IP address";
  const family = version === 4 ? "ipv4" : "ipv6";
  // A v6 address is checked against the v4 ranges too: BlockList matches an IPv4-mapped
  // address (::ffff:127.0.0.1) against them, so the message names the embedded address's range.
  for (const denied of DENIED_RANGES) {
    if ((family === "ipv6" || denied.family === "ipv4") && denied.list.check(bare, family)) {
      return `${denied.what} (${denied.cidr})`;
    }
  }
  if (family === "ipv6" && !GLOBAL_UNICAST.list.check(bare, "ipv6")) {
    return "an address outside IPv6 global unicast (2000::/3)";
  }
  return undefined;
}
