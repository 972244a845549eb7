import { useNavigate } from "@remix-run/react";
import { useEffect } from "react";

/** Escape closes a sheet or dialog that lives in the URL, by going to `href` (its close link). */
export function useEscapeTo(href: string) {
  const navigate = useNavigate();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") navigate(href, { replace: true, preventScrollReset: true });
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [href, navigate]);
}
