import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "~/server/payouts/csv.server";

describe("the payout CSV", () => {
  it("leaves plain cells as they are and writes empty cells for missing values", () => {
    expect(csvCell("name@okhdfcbank")).toBe("name@okhdfcbank");
    expect(csvCell("5.25")).toBe("5.25");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
  });

  it("quotes cells with commas, quotes or line breaks and doubles the quotes inside", () => {
    expect(csvCell("HDFC, Mumbai")).toBe('"HDFC, Mumbai"');
    expect(csvCell('A/C "savings"')).toBe('"A/C ""savings"""');
    expect(csvCell("line one\nline two")).toBe('"line one\nline two"');
    expect(csvCell("carriage\rreturn")).toBe('"carriage\rreturn"');
  });

  it.each(["=1+2", "+91 98765", "-2+3", "@SUM(A1:A2)", "\tTAB", "\rCR"])(
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
