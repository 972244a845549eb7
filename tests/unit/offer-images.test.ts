import { describe, expect, it } from "vitest";
import { fetchableImageUrl, offerImageId, resolvesPublic, sniffImageType } from "~/server/walls/offer-images.server";

// What the offer image route fetches and serves (docs/decisions/099).
describe("offer images", () => {
  it("knows PNG, JPEG, GIF and WebP by their first bytes, and nothing else (no SVG, no HTML)", () => {
    const bytes = (...values: number[]) => Uint8Array.from([...values, ...Array(16).fill(0)]);
    expect(sniffImageType(bytes(0x89, 0x50, 0x4e, 0x47))).toBe("image/png");
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe("image/jpeg");
    expect(sniffImageType(bytes(0x47, 0x49, 0x46, 0x38))).toBe("image/gif");
    expect(sniffImageType(bytes(0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50))).toBe("image/webp");
    expect(sniffImageType(new TextEncoder().encode("<svg onload=alert(1)>"))).toBeNull();
    expect(sniffImageType(new TextEncoder().encode("<!doctype html>"))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });

  it("gives an image the same id for the same network and URL, another for any other, with nothing of the URL in it", () => {
    const id = offerImageId("adgate", "https://cdn.example/1.png");
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(offerImageId("adgate", "https://cdn.example/1.png")).toBe(id);
    expect(offerImageId("lootably", "https://cdn.example/1.png")).not.toBe(id);
    expect(offerImageId("adgate", "https://cdn.example/2.png")).not.toBe(id);
    expect(id).not.toContain("cdn");
  });

  it("fetches https on the default port from a public host; http only from a host it is told; never this machine's network", () => {
    expect(fetchableImageUrl("https://cdn.example/1.png", [])).toBe(true);
    expect(fetchableImageUrl("https://8.8.8.8/1.png", [])).toBe(true);
    for (const url of [
      "http://cdn.example/1.png",
      "https://cdn.example:8443/1.png",
      "https://user:pass@cdn.example/1.png",
      "https://localhost/1.png",
      "https://127.0.0.1/1.png",
      "https://10.1.2.3/1.png",
      "https://172.20.0.1/1.png",
      "https://192.168.1.1/1.png",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/1.png",
      "https://[::1]/1.png",
      "https://[fd00::1]/1.png",
      "https://[::ffff:127.0.0.1]/1.png",
      "https://metadata.google.internal/1.png",
      "ftp://cdn.example/1.png",
      "not a url",
    ])
      expect(fetchableImageUrl(url, []), url).toBe(false);
    expect(fetchableImageUrl("http://127.0.0.1:8080/1.png", ["127.0.0.1"])).toBe(true);
  });

  it("refuses a host name that resolves to this machine's network, or that does not resolve, before fetching it", async () => {
    const resolver = (table: Record<string, string[]>) => async (host: string) => {
      const addresses = table[host];
      if (!addresses) throw new Error("ENOTFOUND");
      return addresses.map((address) => ({ address }));
    };
    const dns = resolver({
      "cdn.example": ["93.184.216.34", "2606:2800:220:1::1"],
      "inward.example": ["10.0.0.5"],
      "mixed.example": ["93.184.216.34", "127.0.0.1"],
      "metadata.example": ["169.254.169.254"],
      "mapped.example": ["::ffff:10.0.0.1"],
    });
    expect(await resolvesPublic("cdn.example", dns)).toBe(true);
    for (const host of ["inward.example", "mixed.example", "metadata.example", "mapped.example", "nowhere.example"])
      expect(await resolvesPublic(host, dns), host).toBe(false);
  });
});
