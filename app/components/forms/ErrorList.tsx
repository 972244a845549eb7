/** A field's or a form's errors, with the id that the input's aria-describedby points at. */
export function ErrorList({ id, errors }: { id?: string; errors: readonly string[] | undefined }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className="mt-1.5 space-y-0.5 text-sm text-red-700">
      {errors.map((error) => (
        <li key={error}>{error}</li>
      ))}
    </ul>
  );
}
