import { createServer, type Server } from "node:http";
import type { AddressInfo, LookupFunction } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fetchableImageUrl,
  getImage,
  offerImageId,
  publicOnlyLookup,
  sniffImageType,
} from "~/server/walls/offer-images.server";

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

  const resolver =
    (table: Record<string, string[]>, asked: string[] = []) =>
    async (host: string) => {
      asked.push(host);
      const addresses = table[host];
      if (!addresses) throw new Error("ENOTFOUND");
      return addresses.map((address) => ({ address }));
    };

  /** What a lookup gives a connection for `host`: its addresses, or the error it refuses with. */
  const lookUp = (lookupFn: LookupFunction, host: string, all: boolean) =>
    new Promise<{ error: string | null; addresses: unknown }>((resolve) =>
      lookupFn(host, { all }, (error, address, family) =>
        resolve({
          error: error ? (error.code ?? error.message) : null,
          addresses: all ? address : { address, family },
        }),
      ),
    );

  it("connects an https image only to a public address of its host: a name with any address in this machine's network, or none, is refused as the connection looks it up", async () => {
    const dns = resolver({
      "cdn.example": ["93.184.216.34", "2606:2800:220:1::1"],
      "inward.example": ["10.0.0.5"],
      "mixed.example": ["93.184.216.34", "127.0.0.1"],
      "metadata.example": ["169.254.169.254"],
      "mapped.example": ["::ffff:10.0.0.1"],
    });
    const lookupFn = publicOnlyLookup(dns);
    expect(await lookUp(lookupFn, "cdn.example", false)).toEqual({
      error: null,
      addresses: { address: "93.184.216.34", family: 4 },
    });
    expect(await lookUp(lookupFn, "cdn.example", true)).toEqual({
      error: null,
      addresses: [
        { address: "93.184.216.34", family: 4 },
        { address: "2606:2800:220:1::1", family: 6 },
      ],
    });
    for (const host of ["inward.example", "mixed.example", "metadata.example", "mapped.example", "nowhere.example"])
      expect((await lookUp(lookupFn, host, false)).error, host).not.toBeNull();
  });

  describe("getting an image over HTTP", () => {
    let server: Server;
    let port: number;
    const requests: string[] = [];
    const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array(24).fill(0)]);

    beforeAll(async () => {
      server = createServer((request, response) => {
        requests.push(request.url ?? "");
        if (request.url === "/big.png") {
          response.writeHead(200, { "content-type": "image/png" });
          response.end(Buffer.alloc(64 * 1024, 1));
        } else if (request.url === "/moved.png") {
          response.writeHead(302, { location: "http://127.0.0.1/elsewhere.png" });
          response.end();
        } else {
          response.writeHead(200, { "content-type": "image/png" });
          response.end(PNG);
        }
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("connects to the address its lookup gave, and to nothing when the lookup refuses the host's addresses (a rebinding name gets no request through)", async () => {
      const asked: string[] = [];
      // A lookup that lets this machine through stands in for a public answer: the request reaches
      // the address it returned, under the image's own host name.
      const letThrough: LookupFunction = (host, options, callback) => {
        asked.push(host);
        if (options.all) callback(null, [{ address: "127.0.0.1", family: 4 }]);
        else callback(null, "127.0.0.1", 4);
      };
      const answer = await getImage(new URL(`http://images.example:${port}/logo.png`), {
        lookup: letThrough,
        deadlineMs: 5_000,
        max: 1024,
      });
      expect(answer).toEqual({ status: 200, type: "image/png", bytes: new Uint8Array(PNG) });
      expect(asked).toEqual(["images.example"]);
      // The same name answering with this machine's address to the public-only lookup: refused.
      requests.length = 0;
      const rebound = getImage(new URL(`http://images.example:${port}/logo.png`), {
        lookup: publicOnlyLookup(resolver({ "images.example": ["127.0.0.1"] })),
        deadlineMs: 5_000,
        max: 1024,
      });
      await expect(rebound).rejects.toMatchObject({ code: "ENOTPUBLIC" });
      expect(requests).toEqual([]);
    });

    it("reads no more than its limit, and follows no redirect", async () => {
      const url = (path: string) => new URL(`http://127.0.0.1:${port}${path}`);
      expect(await getImage(url("/big.png"), { deadlineMs: 5_000, max: 1024 })).toEqual({
        status: 200,
        type: "image/png",
        bytes: null,
      });
      expect(await getImage(url("/moved.png"), { deadlineMs: 5_000, max: 1024 })).toEqual({
        status: 302,
        type: "",
        bytes: null,
      });
      expect(requests).not.toContain("/elsewhere.png");
    });
  });
});
