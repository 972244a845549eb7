/**
 * A bar from 0 to 100, drawn by the browser's own <progress> (its role and value are read out), so
 * no inline style sets its width: the Content-Security-Policy allows none.
 */
export function ProgressBar({ percent, label, thin = false }: { percent: number; label: string; thin?: boolean }) {
  return (
    <progress
      value={percent}
      max={100}
      aria-label={label}
      className={`block w-full appearance-none overflow-hidden rounded-full border-0 bg-gray-100 ${thin ? "h-1.5" : "h-2.5"} [&::-moz-progress-bar]:rounded-full [&::-moz-progress-bar]:bg-brand-600 [&::-webkit-progress-bar]:bg-gray-100 [&::-webkit-progress-value]:rounded-full [&::-webkit-progress-value]:bg-brand-600`}
    />
  );
}
