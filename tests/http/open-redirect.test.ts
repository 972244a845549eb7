import { describe, expect, it } from "vitest";
import { HttpClient, signedInClient } from "../support/http";

// After sign-in the server redirects to `redirectTo`; the URL parser resolves dot segments, so
// "/.//evil.example/login" became "//evil.example/login": another host to every browser.
describe("sign-in never redirects to another host through dot segments", () => {
  it.each(["/.//evil.example/login", "/a/..//x", "/%2e%2e//x"])(
    "POST /auth?redirectTo=%s answers Location: /",
    async (redirectTo) => {
      const { email } = await signedInClient();
      const response = await new HttpClient().post(`/auth?redirectTo=${encodeURIComponent(redirectTo)}`, {
        intent: "signin",
        email,
        password: "s3cret-pass",
      });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/");
    },
  );

  it("a redirectTo with dot segments that stays on the site still returns there", async () => {
    const { email } = await signedInClient();
    const response = await new HttpClient().post(`/auth?redirectTo=${encodeURIComponent("/earn/../withdraw")}`, {
      intent: "signin",
      email,
      password: "s3cret-pass",
    });
    expect(response.headers.get("location")).toBe("/withdraw");
  });
});
