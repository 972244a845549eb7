/** Steps to take in order, each with its number in a circle (a first offer's, an invitation's). */
export function NumberedSteps({ steps, className = "" }: { steps: readonly string[]; className?: string }) {
  return (
    <ol className={`space-y-2.5 text-sm ${className}`}>
      {steps.map((step, index) => (
        <li key={step} className="flex gap-3">
          <span className="inline-flex size-6 shrink-0 items-center justify-center rounded-full bg-brand-50 text-xs font-bold text-brand-700">
            {index + 1}
          </span>
          <span className="min-w-0">{step}</span>
        </li>
      ))}
    </ol>
  );
}
