import { expect } from "vitest";
import type { HttpClient } from "./http";

const decoder = new TextDecoder();

/**
 * The live-refresh stream (/api/events) of one open page, read as it arrives; `path` for a page that
 * asks for more (/api/events?feed=1: the feed of recent cash-outs).
 */
export async function openEvents(client: HttpClient, path = "/api/events") {
  const abort = new AbortController();
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  const response = await fetch(new URL(path, client.baseUrl), { headers: { cookie }, signal: abort.signal });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  let text = "";
  // The server subscribes, then says how soon to reconnect: from then on it is listening.
  while (!text.includes("retry:")) text += decoder.decode((await reader.read()).value);
  let seen = text.length;
  return {
    /** All the stream says until the server ends it; fails if it is still open after `ms`. */
    async untilEnd(ms = 5_000): Promise<string> {
      const timer = setTimeout(() => abort.abort(), ms);
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return text;
          text += decoder.decode(value);
        }
      } catch {
        throw new Error(`the stream was still open after ${ms} ms; it said: ${JSON.stringify(text)}`);
      } finally {
        clearTimeout(timer);
      }
    },
    /**
     * Waits for the next `event: <name>` the stream sends (after those already waited for); fails
     * if none comes within `ms` or the stream ends first. Resolves with the ms it took.
     */
    async nextEvent(name: string, ms = 10_000): Promise<number> {
      const began = Date.now();
      const timer = setTimeout(() => abort.abort(), ms);
      try {
        for (;;) {
          const found = text.indexOf(`event: ${name}\n`, seen);
          if (found >= 0) {
            seen = found + name.length + 8;
            return Date.now() - began;
          }
          const { done, value } = await reader.read();
          if (done) throw new Error(`the stream ended without "${name}"; it said: ${JSON.stringify(text)}`);
          text += decoder.decode(value);
        }
      } catch (error) {
        if (abort.signal.aborted) {
          throw new Error(`no "${name}" within ${ms} ms; the stream said: ${JSON.stringify(text)}`, { cause: error });
        }
        throw error;
      } finally {
        clearTimeout(timer);
      }
    },
    /** Waits for the next `event: <name>` (as nextEvent) and answers its data once it has all come. */
    async nextData(name: string, ms = 10_000): Promise<string> {
      await this.nextEvent(name, ms);
      const start = text.indexOf("data: ", seen - name.length - 8) + "data: ".length;
      while (!text.includes("\n\n", start)) text += decoder.decode((await reader.read()).value);
      return text.slice(start, text.indexOf("\n\n", start));
    },
    /** Everything the stream said so far. */
    said: () => text,
    /** Whether the stream is still open (the server has not ended it); then it is closed. */
    async stillOpen(): Promise<boolean> {
      const next = await Promise.race([
        reader.read(),
        new Promise<"open">((resolve) => setTimeout(() => resolve("open"), 200)),
      ]);
      abort.abort();
      return next === "open" || (!next.done && !decoder.decode(next.value).includes("signed-out"));
    },
    close: () => abort.abort(),
  };
}
