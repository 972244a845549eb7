import { describe, expect, it } from "vitest";
import { DocumentStream, lowPriorityPreloads } from "~/server/http/document-stream.server";

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

  it("marks every module preload low priority when asked (production), and changes nothing else", async () => {
    const page =
      '<head><link rel="icon" href="/favicon.svg"/></head><body><p>&lt;link rel="modulepreload"&gt;</p>' +
      '<link rel="modulepreload" href="/build/a.js"/><link rel="modulepreload" href="/build/b.js"/>' +
      '<script type="module" async="">import "/build/a.js";</script></body>';
    const marked = lowPriorityPreloads(Buffer.from(page)).toString("utf8");
    expect(marked).toBe(page.replaceAll('<link rel="modulepreload"', '<link rel="modulepreload" fetchpriority="low"'));
    expect(marked.match(/fetchpriority="low"/g)).toHaveLength(2);
    const without = Buffer.from("<main>Home</main>");
    expect(lowPriorityPreloads(without)).toBe(without);

    for (const production of [true, false]) {
      const stream = new DocumentStream(production);
      const chunks: string[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")));
      const ended = new Promise((resolve) => stream.on("end", resolve));
      stream.write(Buffer.from(page.slice(0, 60)));
      stream.write(Buffer.from(page.slice(60)));
      stream.end();
      await ended;
      expect(chunks.join("")).toBe(production ? marked : page);
    }
  });
});
