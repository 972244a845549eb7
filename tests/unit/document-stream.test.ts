import { describe, expect, it } from "vitest";
import { DocumentStream } from "~/server/http/document-stream.server";

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
});
