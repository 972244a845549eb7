import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { drawIcon, ICONS, readPng } from "../../scripts/make-icons.mjs";
import { HttpClient, signedInClient } from "../support/http";

// Installable (issue 10): the web app manifest and its icons, the links every page carries, and the
// offline page the service worker keeps. (tests/e2e/offline.js-only.spec.ts shows the offline page
// in Chromium with the network cut.)

/** A colour token of app/styles/app.css, e.g. "brand-600" → "#6938ef". */
function brandToken(name: string): string {
  const css = readFileSync("app/styles/app.css", "utf8");
  const value = new RegExp(`--color-${name}:\\s*(#[0-9a-f]{6})`, "i").exec(css)?.[1];
  expect(value, name).toBeDefined();
  return value!.toLowerCase();
}

const hex = (data: Buffer, offset: number) =>
  "#" + [0, 1, 2].map((channel) => data[offset + channel]!.toString(16).padStart(2, "0")).join("");

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

describe("installable, over HTTP against the production build", () => {
  const client = new HttpClient();
  client.cookies.set("hasSeenOnboarding", "true");
  let signedIn: HttpClient;
  let drawn: Buffer[];

  beforeAll(async () => {
    // Drawn before any request: it takes seconds, longer than the server keeps an idle connection.
    drawn = ICONS.map((icon) => drawIcon(icon));
    signedIn = (await signedInClient()).client;
  });

  it("serves a web app manifest: name and short name, start URL / shown standalone, the brand's theme and background colours, PNG icons of 192 and 512 px and a maskable one", async () => {
    const response = await client.get("/manifest.webmanifest");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
    const manifest = (await response.json()) as Record<string, unknown> & { icons: ManifestIcon[] };
    expect(manifest).toMatchObject({
      name: "Rewards",
      short_name: "Rewards",
      start_url: "/",
      scope: "/",
      display: "standalone",
      theme_color: brandToken("brand-600"),
      background_color: brandToken("canvas"),
    });
    // No orientation lock (WCAG 1.3.4: the app works either way round).
    expect(manifest).not.toHaveProperty("orientation");

    const any = manifest.icons.filter((icon) => (icon.purpose ?? "any").split(" ").includes("any"));
    expect(any.map((icon) => icon.sizes).sort()).toEqual(["192x192", "512x512"]);
    const maskable = manifest.icons.filter((icon) => icon.purpose?.split(" ").includes("maskable"));
    expect(maskable.map((icon) => icon.sizes)).toEqual(["512x512"]);
    for (const icon of manifest.icons) {
      expect(icon.type, icon.src).toBe("image/png");
      const file = await client.get(icon.src);
      expect(file.status, icon.src).toBe(200);
      expect(file.headers.get("content-type"), icon.src).toBe("image/png");
      const png = readPng(Buffer.from(await file.arrayBuffer()));
      expect(`${png.width}x${png.height}`, icon.src).toBe(icon.sizes);
    }
  });

  it("draws the maskable icon to its edges in the theme colour, with the coin inside the safe zone (the centre circle of 80 %)", async () => {
    const { width, height, data } = readPng(
      Buffer.from(await (await client.get("/icons/icon-maskable-512.png")).arrayBuffer()),
    );
    const theme = brandToken("brand-600");
    const outside: string[] = [];
    let transparent = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const offset = (y * width + x) * 4;
        if (data[offset + 3] !== 255) transparent += 1;
        if (Math.hypot(x + 0.5 - width / 2, y + 0.5 - height / 2) > 0.4 * width && hex(data, offset) !== theme) {
          outside.push(`${x},${y}`);
        }
      }
    }
    expect(transparent).toBe(0);
    expect(outside).toEqual([]);
  });

  it("serves the icons scripts/make-icons.mjs draws, byte for byte (real PNGs, made by the committed script)", async () => {
    for (const [index, icon] of ICONS.entries()) {
      const served = Buffer.from(await (await client.get(`/icons/${icon.file}`)).arrayBuffer());
      expect(served.equals(drawn[index]!), icon.file).toBe(true);
    }
  });

  it("every page links the manifest, a 180 px Apple touch icon and a 48 px PNG icon (no SVG icon, which Chromium builds as a document on the main thread) and carries the theme-color meta, under a policy that allows the manifest", async () => {
    const theme = brandToken("brand-600");
    const pages = [
      [client, "/auth"],
      [client, "/legal"],
      [client, "/no/such/page"],
      [new HttpClient(), "/"],
      [signedIn, "/"],
      [signedIn, "/earn"],
      [signedIn, "/withdraw"],
      [signedIn, "/profile"],
    ] as const;
    for (const [visitor, path] of pages) {
      const response = await visitor.get(path);
      const html = await response.text();
      expect(html, path).toContain('<link rel="manifest" href="/manifest.webmanifest"/>');
      expect(html, path).toContain('<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png"/>');
      expect(html, path).toContain('<link rel="icon" href="/icons/favicon-48.png" type="image/png" sizes="48x48"/>');
      expect(html, path).not.toContain("image/svg+xml");
      expect(html, path).toContain(`<meta name="theme-color" content="${theme}"/>`);
      const policy = response.headers.get("content-security-policy")!;
      expect(policy, path).toContain("manifest-src 'self'");
      expect(policy, path).toContain("worker-src 'self'");
    }
    const icon = readPng(Buffer.from(await (await client.get("/icons/favicon-48.png")).arrayBuffer()));
    expect([icon.width, icon.height]).toEqual([48, 48]);
    const apple = readPng(Buffer.from(await (await client.get("/icons/apple-touch-icon.png")).arrayBuffer()));
    expect([apple.width, apple.height]).toEqual([180, 180]);
    // iOS shows transparency as black: the Apple icon is opaque.
    let transparent = 0;
    for (let offset = 3; offset < apple.data.length; offset += 4) if (apple.data[offset] !== 255) transparent += 1;
    expect(transparent).toBe(0);
  });

  it("serves /offline as a document that needs nothing else: no script, no stylesheet to fetch, its inline style allowed by its hash alone", async () => {
    const response = await client.get("/offline");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await response.text();
    expect(html).toContain("<h1>You're offline</h1>");
    expect(html).toContain('<a href="">Try again</a>');
    expect(html).not.toMatch(/<script|<link|<img|style="/);
    const style = /<style>([\s\S]*)<\/style>/.exec(html)![1]!;
    const hash = createHash("sha256").update(style).digest("base64");
    expect(response.headers.get("content-security-policy")).toBe(
      `default-src 'none'; style-src 'sha256-${hash}'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000");
  });

  it("names the service worker's cache after the offline page, so a changed page replaces the kept one", async () => {
    const html = await (await client.get("/offline")).text();
    const version = createHash("sha256").update(html).digest("hex").slice(0, 12);
    const code = await (await client.get("/service-worker.js")).text();
    expect(code).toContain(`const OFFLINE_CACHE = "offline-${version}";`);
    expect(code).toContain('const OFFLINE_URL = "/offline";');
  });
});
