import type { Page } from "@playwright/test";

// What covers what on a screen (tests/e2e/accessibility.spec.ts runs it on every screen, with
// JavaScript on and off), at a small phone, a common phone and a desktop (issue 36):
// - nothing of the page is under a fixed element (the bar, the profile button, a toast) at the
//   end of the page;
// - scrolled from top to bottom, at every stop every control in sight (between the top of the
//   window and the fixed bar at its foot) is what a tap at its left, its centre and its right
//   reaches: nothing fixed floats over a control at any scroll position;
// - on the phone widths every link and button is at least 44 × 44 px (a link inside a sentence
//   excepted, as WCAG 2.5.5 allows).

/** The screens every layout check measures: two phones and a laptop. */
export const SCREEN_SIZES = [
  { width: 320, height: 568, phone: true },
  { width: 390, height: 844, phone: true },
  { width: 1280, height: 800, phone: false },
] as const;

/** The least size of a tap target on a phone, in CSS pixels. */
const TAP = 44;

interface Findings {
  covered: string[];
  small: string[];
  endCovered: string[];
}

/** In the page: the checks above, each finding one line. */
function inspect(page: Page, checkTapSize: boolean): Promise<Findings> {
  return page.evaluate(
    ({ checkTapSize, tap }) => {
      const FOCUSABLE =
        'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex]:not([tabindex="-1"])';
      const dialog = document.querySelector("dialog[open]");
      const scope = dialog ?? document;
      const name = (element: Element) =>
        `${element.tagName.toLowerCase()} "${(element.getAttribute("aria-label") ?? element.textContent ?? element.getAttribute("name") ?? "").trim().replace(/\s+/g, " ").slice(0, 40)}"`;
      // What a tap reaches for the control: a visually hidden radio or checkbox is drawn (and
      // tapped) by its label, as is a small checkbox beside its words.
      const drawnBy = (element: Element) => {
        const box = element.getBoundingClientRect();
        const labelled = element instanceof HTMLInputElement && element.labels?.[0];
        if (!labelled) return element;
        const hidden = box.width <= 1 && box.height <= 1;
        const pick = element.type === "checkbox" || element.type === "radio";
        return hidden || pick ? labelled : element;
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
      const main = document.querySelector("main");

      // At the end of the page (where a full-page screenshot shows the fixed elements), each piece
      // of the page's own content (a text, an icon, an image, a control) is clear of them at its
      // centre and at its corners.
      if (main && !dialog) {
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

      /** Where the window shows the page: above the bar fixed at its foot and a toast on it. */
      const sightBottom = () => {
        let bottom = innerHeight;
        const fixedAtFoot = [
          document.querySelector('nav[aria-label="Main"]'),
          ...document.querySelectorAll("#toasts > *"),
        ];
        for (const element of fixedAtFoot) {
          if (!element || !element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
          const box = element.getBoundingClientRect();
          // A side bar (from lg up) is beside the page, not at its foot.
          if (box.height < innerHeight / 2 && box.bottom >= innerHeight - 80) bottom = Math.min(bottom, box.top);
        }
        return bottom;
      };
      /** The part of the element its scrolling or clipping ancestors let show. */
      const clipped = (element: Element) => {
        const box = element.getBoundingClientRect();
        let [left, right, top, bottom] = [box.left, box.right, box.top, box.bottom];
        for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
          const style = getComputedStyle(parent);
          if (style.overflowX === "visible" && style.overflowY === "visible") continue;
          const clip = parent.getBoundingClientRect();
          [left, right, top, bottom] = [
            Math.max(left, clip.left),
            Math.min(right, clip.right),
            Math.max(top, clip.top),
            Math.min(bottom, clip.bottom),
          ];
        }
        return { left, right, top, bottom };
      };
      const seen = new Set<string>();
      /** At this scroll position: each control in sight, tapped at its left, centre and right. */
      const tapEverythingInSight = (scrolledTo: string) => {
        const bottom = sightBottom();
        for (const { element, drawn } of controls) {
          const box = clipped(drawn);
          if (box.right - box.left < 2 || box.bottom - box.top < 2) continue;
          const y = (box.top + box.bottom) / 2;
          if (y < 0 || y >= bottom) continue;
          const inset = Math.min(4, (box.right - box.left) / 4);
          const sides: [string, number][] = [
            ["left", box.left + inset],
            ["centre", (box.left + box.right) / 2],
            ["right", box.right - inset],
          ];
          for (const [side, x] of sides) {
            if (x < 0 || x >= innerWidth) continue;
            const hit = document.elementFromPoint(x, y);
            if (hit && (related(hit, drawn) || related(hit, element))) continue;
            const line = `${name(element)} is under ${hit ? name(hit.closest("a, button, nav, details, dialog") ?? hit) : "nothing"} at its ${side}`;
            if (seen.has(line)) continue;
            seen.add(line);
            findings.covered.push(`${line} (scrolled to ${scrolledTo})`);
          }
        }
      };
      if (dialog) {
        // A dialog scrolls itself: each of its controls is brought into sight in turn.
        for (const { drawn } of controls) {
          drawn.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" });
          tapEverythingInSight("its control");
        }
      } else {
        const end = document.documentElement.scrollHeight - innerHeight;
        const step = Math.max(80, Math.floor((sightBottom() * 2) / 3));
        for (let top = 0; ; top = Math.min(top + step, end)) {
          window.scrollTo({ top, behavior: "instant" });
          tapEverythingInSight(`${Math.round(scrollY)} px`);
          if (top >= end) break;
        }
      }

      if (checkTapSize) {
        for (const { element, drawn } of controls) {
          if (!element.matches("a[href], button, summary, input[type=checkbox], input[type=radio]")) continue;
          const box = drawn.getBoundingClientRect();
          if (box.width >= tap - 0.5 && box.height >= tap - 0.5) continue;
          // A link inside a sentence is as tall as its line (WCAG 2.5.5's exception).
          const inSentence =
            element.tagName === "A" &&
            getComputedStyle(element).display === "inline" &&
            [...(element.parentElement?.childNodes ?? [])].some(
              (node) => node !== element && node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== "",
            );
          if (inSentence) continue;
          findings.small.push(`${name(element)} is ${Math.round(box.width)} × ${Math.round(box.height)} px`);
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
  for (const { width, height, phone } of SCREEN_SIZES) {
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
