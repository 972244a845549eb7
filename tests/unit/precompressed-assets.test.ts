import { describe, expect, it } from "vitest";
import { acceptsEncoding, precompressedAssetRoute } from "~/server/http/precompressed-assets.server";

describe("acceptsEncoding reads Accept-Encoding as RFC 9110 says", () => {
  it.each([
    ["gzip, deflate, br, zstd", "br", true],
    ["gzip, deflate, br, zstd", "gzip", true],
    ["gzip", "br", false],
    ["br;q=0, gzip", "br", false],
    ["BR;Q=0.5", "br", true],
    ["*", "br", true],
    ["*;q=0", "gzip", false],
    ["br;q=0, *", "br", false],
    ["gzip;q=0, *", "br", true],
    ["identity", "gzip", false],
    ["", "gzip", false],
  ] as const)("%j takes %s: %s", (header, coding, expected) => {
    expect(acceptsEncoding(header, coding)).toBe(expected);
  });

  it("no header takes nothing", () => {
    expect(acceptsEncoding(null, "gzip")).toBe(false);
  });
});

describe("precompressedAssetRoute answers only the build's own names", () => {
  it.each([
    "/build/../package.json",
    "/build/_shared/../../../etc/passwd.js",
    "/build/%2e%2e/x.js",
    "/public/build/x.js",
    "/build/x.json",
    "/build/_shared/chunk-NOTBUILT.js",
  ])("%s is not answered from the copies", (pathname) => {
    expect(precompressedAssetRoute(pathname)).toBeNull();
  });
});
