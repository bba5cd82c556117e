// Quota keys of client addresses and the trusted proxy hops.
import { describe, expect, it } from "vitest";
import { addressKey, trustProxyHops } from "./client-address.ts";

describe("addressKey", () => {
  it("keeps IPv4 as is", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
  });

  it("reads IPv4-mapped IPv6 as IPv4, in either notation", () => {
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::FFFF:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:cb00:7107")).toBe("203.0.113.7");
    expect(addressKey("0:0:0:0:0:ffff:cb00:7107")).toBe("203.0.113.7");
  });

  it("groups IPv6 by /64", () => {
    expect(addressKey("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0db8:0001:0002:ffff:eeee:dddd:cccc")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressKey("2001:db8:1:3::1")).not.toBe(addressKey("2001:db8:1:2::1"));
  });

  it("says unknown for anything else", () => {
    expect(addressKey(undefined)).toBe("unknown");
    expect(addressKey("not an address")).toBe("unknown");
  });
});

describe("trustProxyHops", () => {
  it("trusts exactly the configured number of hops", () => {
    expect(trustProxyHops(0)).toBe(false);
    const two = trustProxyHops(2);
    expect(two && [0, 1, 2].map((hop) => two("10.0.0.1", hop))).toEqual([true, true, false]);
  });
});
