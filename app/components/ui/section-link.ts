// A section's "View All" / "See All" link: 44 px tall, so a thumb finds it, without moving the
// heading beside it (its padding is taken back by the negative margin).
export const SECTION_LINK =
  "-my-3 -mr-2 inline-flex min-h-11 items-center rounded-lg px-2 text-sm font-semibold text-brand-700 hover:underline active:bg-brand-50";
