import { describe, expect, it } from "vitest";
import { canonicalEmail } from "~/domain/identity";

// docs/decisions/064: every alias of one inbox maps to one canonical email.
describe("the canonical email (one person, one identity)", () => {
  it.each([
    ["Farmer@Example.com", "farmer@example.com"],
    ["  farmer@example.com\t", "farmer@example.com"],
    ["farmer+1@example.com", "farmer@example.com"],
    ["FARMER+Two+three@EXAMPLE.COM", "farmer@example.com"],
    ["x.y@gmail.com", "xy@gmail.com"],
    ["X.Y+promo@GMail.com", "xy@gmail.com"],
    ["x.y@googlemail.com", "xy@gmail.com"],
    ["xy@googlemail.com", "xy@gmail.com"],
    ["first.last@example.com", "first.last@example.com"],
    ["first.last@outlook.com", "first.last@outlook.com"],
    ["x.y@gmail.com.evil.test", "x.y@gmail.com.evil.test"],
    ["+tag@example.com", "+tag@example.com"],
    ['"a+b.c"@example.com', '"a+b.c"@example.com'],
    ['"A B"@Gmail.com', '"a b"@gmail.com'],
  ])("%s is %s", (email, canonical) => {
    expect(canonicalEmail(email)).toBe(canonical);
  });

  it.each(["", "farmer", "@example.com", "farmer@", "...@gmail.com", ".+x@gmail.com"])(
    "%j is not an address: null",
    (email) => {
      expect(canonicalEmail(email)).toBeNull();
    },
  );
});
