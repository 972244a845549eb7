import { useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useHydrated } from "~/lib/use-hydrated";
import { Banner } from "~/components/ui/Banner";
import { buttonClass } from "~/components/shared";
import { Icon } from "~/components/ui/Icon";

// docs/product.md, "Profile: load failure": a failed profile load is retried at most 3 times, after 1 s, 2 s and 4 s.
const RETRY_DELAYS_MS = [1_000, 2_000, 4_000];

/**
 * "Failed to load profile" (docs/product.md, "Profile: load failure"): the server's page says so with a Retry link; with JavaScript
 * the page also retries by itself (in the browser, never as a wait inside a loader).
 */
export function ProfileLoadFailure() {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const [attempts, setAttempts] = useState(0);
  const retrying = revalidator.state === "loading";
  useEffect(() => {
    if (attempts >= RETRY_DELAYS_MS.length || revalidator.state !== "idle") return;
    const timer = setTimeout(() => {
      setAttempts((count) => count + 1);
      revalidator.revalidate();
    }, RETRY_DELAYS_MS[attempts]);
    return () => clearTimeout(timer);
  }, [attempts, revalidator]);
  return (
    <div className="space-y-4">
      <Banner tone="error" title="Failed to load profile">
        Please try refreshing the page.
      </Banner>
      <div role="alert" className="rounded-2xl border border-line bg-white p-5 text-center shadow-sm">
        <p className="text-base font-semibold">Could not load profile</p>
        <p className="mt-1 text-sm text-muted" aria-live="polite">
          {retrying
            ? "Retrying profile load..."
            : hydrated && attempts < RETRY_DELAYS_MS.length
              ? "Trying again shortly."
              : ""}
        </p>
        <div className="mt-4">
          {/* A full reload: works without JavaScript. */}
          <a href="/profile" className={buttonClass({ tone: "secondary", size: "md" })}>
            <Icon name="refresh" className="size-4" />
            Retry
          </a>
        </div>
      </div>
    </div>
  );
}
