/**
 * A bar from 0 to 100, drawn by the browser's own <progress> (its role and value are read out), so
 * no inline style sets its width: the Content-Security-Policy allows none.
 */
export function ProgressBar({ percent, label, thin = false }: { percent: number; label: string; thin?: boolean }) {
  return (
    <progress value={percent} max={100} aria-label={label} className={`progress-bar ${thin ? "h-1.5" : "h-2.5"}`} />
  );
}
