// A console link that stands alone (a way back, a name in a table cell): 44 px tall, as every tap
// target (issue 36); a link inside a sentence keeps its line's height.
export const CONSOLE_LINK =
  "inline-flex min-h-11 min-w-11 items-center font-medium text-brand-700 underline underline-offset-2 [overflow-wrap:anywhere]";
