// Which addresses the http tool refuses: the spec's list, every other non-public range, IPv6 forms of IPv4.
import { describe, expect, it } from "vitest";
import { addressProblem, hostProblem } from "../../src/http/index.js";

describe("addressProblem", () => {
  it("refuses every address the spec lists: 127.0.0.1, ::1, 10/8, 172.16/12, 192.168/16, 169.254.169.254", () => {
    expect(addressProblem("127.0.0.1")).toBe("a loopback address of this machine (127.0.0.0/8)");
    expect(addressProblem("127.255.0.9")).toContain("loopback");
    expect(addressProblem("::1")).toBe("the IPv6 loopback address of this machine (::1/128)");
    expect(addressProblem("10.1.2.3")).toBe("a private address (10.0.0.0/8)");
    expect(addressProblem("172.16.0.1")).toBe("a private address (172.16.0.0/12)");
    expect(addressProblem("172.31.255.255")).toBe("a private address (172.16.0.0/12)");
    expect(addressProblem("192.168.1.1")).toBe("a private address (192.168.0.0/16)");
    expect(addressProblem("169.254.169.254")).toBe(
      "a link-local address, the range of the cloud metadata service 169.254.169.254 (169.254.0.0/16)",
    );
  });

  it("refuses localhost by name", () => {
    expect(hostProblem("localhost")).toBe("localhost is a name of this machine (loopback)");
    expect(hostProblem("LocalHost")).toContain("loopback");
    expect(hostProblem("api.localhost")).toContain("loopback");
    expect(hostProblem("example.com")).toBeUndefined();
  });

  it("refuses every other non-public IPv4 range: 0.0.0.0/8, carrier-grade NAT, multicast, reserved, broadcast, documentation, benchmarking", () => {
    for (const address of [
      "0.0.0.0",
      "0.1.2.3",
      "100.64.0.1",
      "100.127.255.254",
      "192.0.0.8",
      "192.0.2.1",
      "198.18.0.1",
      "198.51.100.1",
      "203.0.113.1",
      "224.0.0.1",
      "239.255.255.250",
      "240.0.0.1",
      "255.255.255.255",
    ]) {
      expect(addressProblem(address), address).toBeDefined();
    }
  });

  it("refuses IPv6 loopback, unspecified, unique local, link-local, site-local, multicast and documentation addresses", () => {
    for (const address of [
      "::",
      "::1",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "febf::1",
      "fec0::1",
      "ff02::1",
      "2001:db8::1",
      "3fff::1",
    ]) {
      expect(addressProblem(address), address).toBeDefined();
    }
    expect(addressProblem("fe80::1%eth0")).toBe(
      "a scoped IPv6 address, whose zone index names a local interface",
    );
  });

  it("refuses IPv6 forms of internal IPv4 addresses: IPv4-mapped, IPv4-compatible, NAT64 and 6to4", () => {
    expect(addressProblem("::ffff:127.0.0.1")).toBe("a loopback address of this machine (127.0.0.0/8)");
    expect(addressProblem("::ffff:7f00:1")).toBe("a loopback address of this machine (127.0.0.0/8)");
    expect(addressProblem("::ffff:a9fe:a9fe")).toContain("cloud metadata");
    expect(addressProblem("::ffff:8.8.8.8")).toBe("an IPv4-mapped IPv6 address (::ffff:0:0/96)");
    expect(addressProblem("::7f00:1")).toBe("an IPv4-compatible IPv6 address (::/96)");
    expect(addressProblem("64:ff9b::7f00:1")).toBe("a NAT64 address (64:ff9b::/96)");
    expect(addressProblem("64:ff9b:1::a00:1")).toBe("a local NAT64 address (64:ff9b:1::/48)");
    expect(addressProblem("2002:7f00:1::1")).toBe("a 6to4 IPv6 address (2002::/16)");
    expect(addressProblem("2001:0:4136:e378::1")).toContain("Teredo");
  });

  it("refuses IPv6 outside global unicast 2000::/3", () => {
    expect(addressProblem("4000::1")).toBe("an address outside IPv6 global unicast (2000::/3)");
    expect(addressProblem("100::1")).toBe("a discard-only IPv6 address (100::/64)");
  });

  it("allows public unicast addresses, just past the edges of the private ranges", () => {
    for (const address of [
      "8.8.8.8",
      "1.1.1.1",
      "172.32.0.1",
      "172.15.255.255",
      "100.128.0.1",
      "11.0.0.1",
      "2606:4700:4700::1111",
      "2a00:1450:4001::200e",
    ]) {
      expect(addressProblem(address), address).toBeUndefined();
    }
  });

  it("refuses what is not an IP address", () => {
    expect(addressProblem("example.com")).toBe("not an IP address");
    expect(addressProblem("")).toBe("not an IP address");
  });
});
