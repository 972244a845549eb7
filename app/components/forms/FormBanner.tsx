import { Banner } from "../ui/Banner";

/**
 * The errors of a whole form (not of one field), above it. `title` heads them when the spec
 * words a failure as a title and a description ("Failed to check in. Please try again.").
 */
export function FormBanner({
  id,
  title,
  errors,
}: {
  id?: string;
  title?: string;
  errors: readonly string[] | undefined;
}) {
  if (!errors?.length) return null;
  return (
    <Banner tone="error" id={id} title={title}>
      {errors.join(" ")}
    </Banner>
  );
}
