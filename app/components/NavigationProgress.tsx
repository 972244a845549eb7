import { useNavigation } from "@remix-run/react";

/** A thin bar at the top while a page's data is loading (client-side navigation). */
export function NavigationProgress() {
  const navigation = useNavigation();
  const active = navigation.state !== "idle";
  return (
    <div
      role="progressbar"
      aria-label="Loading"
      aria-hidden={!active}
      className={`pointer-events-none fixed inset-x-0 top-0 z-50 h-0.5 origin-left bg-brand-500 transition-all duration-500 ${
        active ? "scale-x-75 opacity-100" : "scale-x-100 opacity-0"
      }`}
    />
  );
}
