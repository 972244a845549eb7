import { Link } from "@remix-run/react";
import { buttonClass } from "./ui/button";
import { Icon } from "./ui/Icon";

/** docs/product.md, "Not found": the page for any unknown path. */
export function NotFound() {
  return (
    <div className="flex min-h-[70dvh] flex-col items-center justify-center text-center">
      <span className="inline-flex size-20 items-center justify-center rounded-3xl bg-brand-100 text-brand-600">
        <Icon name="compass" className="size-10" />
      </span>
      <p className="mt-6 text-5xl font-extrabold tracking-tight text-brand-600">404</p>
      <h1 className="mt-2 text-xl font-bold">Oops! Page not found</h1>
      <p className="mt-2 max-w-xs text-sm text-muted">The page you are looking for does not exist or has moved.</p>
      <div className="mt-8 w-full max-w-xs">
        <Link to="/" className={buttonClass({ block: true })}>
          Return to Home
        </Link>
      </div>
    </div>
  );
}
