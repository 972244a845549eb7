import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "~/server/withdrawals/payouts/csv.server";

describe("the payout CSV", () => {
  it("leaves plain cells as they are and writes empty cells for missing values", () => {
    expect(csvCell("name@okhdfcbank")).toBe("name@okhdfcbank");
    expect(csvCell("5.25")).toBe("5.25");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
  });

  it("quotes cells with commas or quotes and doubles the quotes inside", () => {
    expect(csvCell("HDFC, Mumbai")).toBe('"HDFC, Mumbai"');
    expect(csvCell('A/C "savings"')).toBe('"A/C ""savings"""');
  });

  it("writes line breaks, terminal escapes, C1 controls and bidi overrides out as escapes, so each row is one line", () => {
    expect(csvCell("line one\nline two")).toBe(String.raw`line one\nline two`);
    expect(csvCell("carriage\rreturn")).toBe(String.raw`carriage\rreturn`);
    expect(csvCell("A/C 1\u001b[2K\u001b[8m2\u009b\u202e3\u200b")).toBe(
      String.raw`A/C 1\u001b[2K\u001b[8m2\u009b\u202e3\u200b`,
    );
    expect(csvCell("\tTAB")).toBe(String.raw`\tTAB`);
    expect(csvCell("\rCR")).toBe(String.raw`\rCR`);
    expect(toCsv(["details"], [["a\r\nb\u001b"]])).toBe("details\r\n" + String.raw`a\r\nb\u001b` + "\r\n");
  });

  it.each(["=1+2", "+91 98765", "-2+3", "@SUM(A1:A2)"])(
    "keeps %j as text with a leading apostrophe (no formula in a spreadsheet)",
    (cell) => {
      expect(csvCell(cell).replace(/^"/, "").startsWith(`'${cell[0]}`)).toBe(true);
    },
  );

  it("guards a formula and quotes it when it also holds a comma or quote", () => {
    expect(csvCell('=HYPERLINK("http://evil.example","Click")')).toBe(
      `"'=HYPERLINK(""http://evil.example"",""Click"")"`,
    );
  });

  it("writes a header and rows with CRLF line ends", () => {
    expect(
      toCsv(
        ["id", "amount"],
        [
          ["a", "1.00"],
          ["b", null],
        ],
      ),
    ).toBe("id,amount\r\na,1.00\r\nb,\r\n");
  });
});
