/** The look of an on/off switch; the caller wraps it in the button that toggles it (role="switch"). */
export function SwitchTrack({ on }: { on: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition ${on ? "bg-brand-600" : "bg-gray-300"}`}
    >
      <span
        className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${on ? "translate-x-6" : "translate-x-1"}`}
      />
    </span>
  );
}
