import { Icon } from "./Icon";

/** A part of a page that could not load, in place of its content; the rest of the page still works. */
export function SectionError({ title, description }: { title: string; description: string }) {
  return (
    <div role="alert" className="flex items-start gap-3 rounded-xl bg-red-50 px-4 py-3 text-sm text-red-800">
      <Icon name="alert" className="mt-0.5 size-4 shrink-0" />
      <div>
        <p className="font-semibold">{title}</p>
        <p className="mt-0.5">{description}</p>
      </div>
    </div>
  );
}
