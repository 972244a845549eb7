// @ts-check
// `node scripts/make-icons.mjs`: draws the app's icons as PNG files in public/icons (the page's
// icon, the web app manifest's and the Apple touch icon), from the same drawing as
// public/favicon.svg: a coin with a dollar sign, white on the brand purple. Run it again after
// changing the drawing or the colour, and commit the PNG files it writes.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pngjs from "pngjs";

/** @type {[number, number, number]} */
const BRAND = [0x69, 0x38, 0xef]; // --color-brand-600 in app/styles/app.css
/** @type {[number, number, number]} */
const WHITE = [0xff, 0xff, 0xff];
const VIEW = 32; // favicon.svg's viewBox

/** The icons: `rounded` ones have favicon.svg's transparent corners; the others fill the square (maskable, Apple). */
export const ICONS = [
  // The page's icon (app/root.tsx): a PNG, which Chromium decodes off the main thread; an SVG icon
  // is a document of its own, built on the main thread after the first paint (docs/decisions/107).
  { file: "favicon-48.png", size: 48, rounded: true },
  { file: "icon-192.png", size: 192, rounded: true },
  { file: "icon-512.png", size: 512, rounded: true },
  { file: "icon-maskable-512.png", size: 512, rounded: false },
  { file: "apple-touch-icon.png", size: 180, rounded: false },
];

/** @typedef {[number, number]} Point */

/**
 * Points along a circle's arc from angle `from` to `to`.
 * @param {number} cx @param {number} cy @param {number} r @param {number} from @param {number} to
 * @returns {Point[]}
 */
function arc(cx, cy, r, from, to, steps = 24) {
  return Array.from({ length: steps + 1 }, (_, i) => {
    const angle = from + ((to - from) * i) / steps;
    return [cx + r * Math.cos(angle), cy + r * Math.sin(angle)];
  });
}

// favicon.svg's dollar sign as polylines (its arcs sampled): "M16 11v10" and
// "M18.5 12.8h-3.8a1.6 1.6 0 0 0 0 3.2h2.6a1.6 1.6 0 0 1 0 3.2H13.5".
const HALF_PI = Math.PI / 2;
/** @type {Point[][]} */
const DOLLAR = [
  [
    [16, 11],
    [16, 21],
  ],
  [
    [18.5, 12.8],
    ...arc(14.7, 14.4, 1.6, -HALF_PI, -3 * HALF_PI),
    ...arc(17.3, 17.6, 1.6, -HALF_PI, HALF_PI),
    [13.5, 19.2],
  ],
];

/** @param {number} px @param {number} py @param {Point} a @param {Point} b */
function segmentDistance(px, py, [ax, ay], [bx, by]) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

/**
 * Signed distances (negative inside), in viewBox units.
 * @param {number} px @param {number} py @param {number} radius
 */
function roundedSquare(px, py, radius) {
  const qx = Math.abs(px - VIEW / 2) - (VIEW / 2 - radius);
  const qy = Math.abs(py - VIEW / 2) - (VIEW / 2 - radius);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}
/** @param {number} px @param {number} py */
function coin(px, py) {
  const ring = Math.abs(Math.hypot(px - 16, py - 16) - 8) - 1.25;
  let sign = Infinity;
  for (const line of DOLLAR) {
    for (let i = 1; i < line.length; i++)
      sign = Math.min(
        sign,
        segmentDistance(px, py, /** @type {Point} */ (line[i - 1]), /** @type {Point} */ (line[i])),
      );
  }
  return Math.min(ring, sign - 0.8);
}

/**
 * One icon as RGBA pixels, edges smoothed by each pixel's distance to the shape.
 * @param {{ size: number, rounded: boolean }} icon
 */
export function drawIcon({ size, rounded }) {
  const png = new pngjs.PNG({ width: size, height: size });
  const unit = VIEW / size;
  const cover = (/** @type {number} */ distance) => Math.max(0, Math.min(1, 0.5 - distance / unit));
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const px = (x + 0.5) * unit;
      const py = (y + 0.5) * unit;
      const background = rounded ? cover(roundedSquare(px, py, 8)) : 1;
      const white = cover(coin(px, py));
      const offset = (y * size + x) * 4;
      for (const c of /** @type {const} */ ([0, 1, 2]))
        png.data[offset + c] = Math.round(BRAND[c] + (WHITE[c] - BRAND[c]) * white);
      png.data[offset + 3] = Math.round(background * 255);
    }
  }
  return pngjs.PNG.sync.write(png, { colorType: rounded ? 6 : 2 });
}

/**
 * Width, height and RGBA pixels of a PNG file (tests/http/installable.test.ts reads the icons back with it).
 * @param {Buffer} buffer
 */
export function readPng(buffer) {
  const { width, height, data } = pngjs.PNG.sync.read(buffer);
  return { width, height, data };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "../public/icons");
  mkdirSync(dir, { recursive: true });
  for (const icon of ICONS) {
    const png = drawIcon(icon);
    writeFileSync(path.join(dir, icon.file), png);
    console.log(`public/icons/${icon.file}: ${icon.size}×${icon.size}, ${png.length} bytes`);
  }
}
