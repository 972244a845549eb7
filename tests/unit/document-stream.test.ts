import { describe, expect, it } from "vitest";
import { DocumentStream, scriptsAfterFirstPaint } from "~/server/http/document-stream.server";

describe("DocumentStream", () => {
  it("hands on what was written between two flushes as one chunk, and what is left at the end", async () => {
    const stream = new DocumentStream();
    const chunks: string[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")));
    const ended = new Promise((resolve) => stream.on("end", resolve));
    const encoder = new TextEncoder();
    expect(stream.write(encoder.encode("<html><body>"))).toBe(true);
    stream.write(encoder.encode("<main>Home</main>"));
    stream.flush();
    stream.flush();
    stream.write(encoder.encode("<script>late()</script>"));
    stream.write(encoder.encode("</body></html>"));
    stream.end();
    await ended;
    expect(chunks).toEqual(["<html><body><main>Home</main>", "<script>late()</script></body></html>"]);
  });

  it("holds the app's scripts until the first paint when asked (production): preloads inert, the module script of a type that does not run, the starter in Remix's first inline script", async () => {
    const page =
      '<head><link rel="icon" href="/favicon.svg"/></head><body><p>&lt;link rel="modulepreload"&gt;</p>' +
      '<link rel="modulepreload" href="/build/a.js"/><link rel="modulepreload" href="/build/b.js"/>' +
      '<script nonce="n1">window.__remixContext = {};</script>' +
      '<script nonce="n1" type="module" async="">import "/build/a.js";</script></body>';
    const held = scriptsAfterFirstPaint(Buffer.from(page)).toString("utf8");
    expect(held).not.toContain('<link rel="modulepreload"');
    expect(held.match(/<link rel="x-modulepreload" href="\/build\/[ab].js"\/>/g)).toHaveLength(2);
    expect(held).toContain('<script nonce="n1" type="x-module-after-paint">import "/build/a.js";</script>');
    expect(held).not.toContain('type="module"');
    // The starter runs first in Remix's context script, and waits for a painted frame.
    const starter = /<script nonce="n1">(.*)window\.__remixContext = \{\};<\/script>/.exec(held)?.[1] ?? "";
    expect(starter).toContain("requestAnimationFrame(");
    expect(starter).toContain("link.rel='modulepreload'");
    expect(starter).toContain("script.type='module'");
    // Everything before the first marker is the same bytes, the person's escaped text included.
    expect(held.startsWith(page.slice(0, page.indexOf('<link rel="modulepreload"')))).toBe(true);
    const without = Buffer.from("<main>Home</main>");
    expect(scriptsAfterFirstPaint(without)).toBe(without);

    for (const production of [true, false]) {
      const stream = new DocumentStream(production);
      const chunks: string[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")));
      const ended = new Promise((resolve) => stream.on("end", resolve));
      stream.write(Buffer.from(page.slice(0, 60)));
      stream.write(Buffer.from(page.slice(60)));
      stream.end();
      await ended;
      expect(chunks.join("")).toBe(production ? held : page);
    }
  });
});
