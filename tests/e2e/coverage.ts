import type { Page } from "@playwright/test";

// What covers what on a screen (tests/e2e/accessibility.spec.ts runs it on every screen, with
// JavaScript on and off), at a small phone, a common phone and a desktop: nothing of the page is
// under a fixed element (the bottom bar, the floating profile button, a toast) at the end of the
// page, nothing a person can press is under one once scrolled to, and on the phone widths every
// tap target is big enough for a finger.

const WIDTHS = [
  { width: 320, height: 568, phone: true },
  { width: 390, height: 844, phone: true },
  { width: 1280, height: 800, phone: false },
] as const;

/** The least size of a tap target on a phone (or the room around it), in CSS pixels. */
const TAP = 44;

interface Findings {
  covered: string[];
  small: string[];
  endCovered: string[];
}

/**
 * In the page: each control that can be focused (inside the open dialog when there is one) is
 * scrolled to the middle of the screen, or as near as the page allows, and the element at the
 * centre of what draws it (a radio drawn as a card is drawn by its label) must be that control, a
 * part of it or one that holds it. On phones, each must also be 44 px square, or have no other
 * control within a 44 px square centred on it (WCAG 2.5.8's spacing rule, at 44 px).
 */
function inspect(page: Page, checkTapSize: boolean): Promise<Findings> {
  return page.evaluate(
    ({ checkTapSize, tap }) => {
      const FOCUSABLE =
        'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex]:not([tabindex="-1"])';
      const scope = document.querySelector("dialog[open]") ?? document;
      const name = (element: Element) =>
        `${element.tagName.toLowerCase()} "${(element.getAttribute("aria-label") ?? element.textContent ?? element.getAttribute("name") ?? "").trim().replace(/\s+/g, " ").slice(0, 40)}"`;
      const drawnBy = (element: Element) => {
        const box = element.getBoundingClientRect();
        return box.width <= 1 && box.height <= 1 && element instanceof HTMLInputElement && element.labels?.[0]
          ? element.labels[0]
          : element;
      };
      const controls = [...scope.querySelectorAll(FOCUSABLE)]
        .filter((element) => element.checkVisibility({ visibilityProperty: true, opacityProperty: true }))
        .map((element) => ({ element, drawn: drawnBy(element) }))
        .filter(({ drawn }) => {
          const box = drawn.getBoundingClientRect();
          return box.width > 1 && box.height > 1;
        });
      const related = (a: Element, b: Element) => a === b || a.contains(b) || b.contains(a);
      const findings = { covered: [] as string[], small: [] as string[], endCovered: [] as string[] };
      // At the end of the page (where a full-page screenshot shows the fixed elements), each piece
      // of the page's own content (a text, an icon, an image, a control) is clear of them at its
      // centre and at its corners.
      const main = document.querySelector("main");
      if (main && scope === document) {
        window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" });
        const pieces = [...main.querySelectorAll("*")].filter(
          (element) =>
            element.matches("img, svg, input, button, a, select, textarea") ||
            [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== ""),
        );
        for (const piece of pieces) {
          if (!piece.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
          const box = piece.getBoundingClientRect();
          if (box.width < 1 || box.height < 1) continue;
          const inset = Math.min(2, box.width / 2, box.height / 2);
          const corners: [number, number][] = [
            [box.left + box.width / 2, box.top + box.height / 2],
            [box.left + inset, box.top + inset],
            [box.right - inset, box.top + inset],
            [box.left + inset, box.bottom - inset],
            [box.right - inset, box.bottom - inset],
          ];
          const points = corners.filter(([x, y]) => x >= 0 && y >= 0 && x < innerWidth && y < innerHeight);
          const over = points
            .map(([x, y]) => document.elementFromPoint(x, y))
            .find((hit) => hit && !main.contains(hit) && !hit.contains(main));
          if (over) {
            const what = over.closest("a, button, nav, details, dialog") ?? over;
            findings.endCovered.push(`${name(piece)} is under ${name(what)} at the end of the page`);
          }
        }
      }
      for (const { element, drawn } of controls) {
        drawn.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" });
        const box = drawn.getBoundingClientRect();
        const x = box.left + box.width / 2;
        const y = box.top + box.height / 2;
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) {
          findings.covered.push(`${name(element)} cannot be scrolled into view`);
          continue;
        }
        const hit = document.elementFromPoint(x, y);
        if (!hit || !(related(hit, drawn) || related(hit, element))) {
          findings.covered.push(`${name(element)} is under ${hit ? name(hit) : "nothing"}`);
        }
      }
      if (checkTapSize) {
        const boxes = controls.map(({ element, drawn }) => ({ element, drawn, box: drawn.getBoundingClientRect() }));
        for (const { element, drawn, box } of boxes) {
          if (box.width >= tap - 0.5 && box.height >= tap - 0.5) continue;
          const x = box.left + box.width / 2;
          const y = box.top + box.height / 2;
          const crowded = boxes.find(
            (other) =>
              !related(other.drawn, drawn) &&
              !related(other.element, element) &&
              other.box.left < x + tap / 2 &&
              other.box.right > x - tap / 2 &&
              other.box.top < y + tap / 2 &&
              other.box.bottom > y - tap / 2,
          );
          if (crowded) {
            findings.small.push(
              `${name(element)} is ${Math.round(box.width)} × ${Math.round(box.height)} px and ${name(crowded.element)} is within ${tap} px`,
            );
          }
        }
      }
      return findings;
    },
    { checkTapSize, tap: TAP },
  );
}

/** At each width, what is covered or too small, one line each ("320 px: button "Save" is under …"). */
export async function coverageProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  for (const { width, height, phone } of WIDTHS) {
    await page.setViewportSize({ width, height });
    // Transitions that follow the width (the bottom bar becoming a side bar) settle first.
    await page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation instanceof CSSTransition)
          .map((animation) => animation.finished),
      ),
    );
    const { covered, small, endCovered } = await inspect(page, phone);
    problems.push(...[...endCovered, ...covered, ...small].map((line) => `${width} px: ${line}`));
  }
  return problems;
}
