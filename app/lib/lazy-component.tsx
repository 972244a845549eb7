import { lazy, Suspense, type ComponentType } from "react";

/**
 * A component that only some visits show (a dialog, a sheet, another tab, the onboarding), whose
 * code the browser downloads when it is first shown rather than with the page: the pages carry
 * less JavaScript before any interaction. The server loads it when it starts and renders it
 * synchronously, so the HTML is complete with or without JavaScript. In the browser the first
 * showing waits for the download: hydration keeps the server's HTML meanwhile, and a showing
 * after a navigation renders nothing until then (usually a few milliseconds).
 */
export function lazyComponent<Props extends object>(load: () => Promise<ComponentType<Props>>): ComponentType<Props> {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  let loaded: ComponentType<Props> | undefined;
  if (typeof document === "undefined") {
    void load().then((component) => {
      loaded = component;
    });
  }
  // The same Suspense boundary on both sides, so that hydration finds what the server sent. (In
  // the browser `loaded` stays unset: the lazy component renders at once after its download.)
  return function LazyComponent(props: Props) {
    const Component = (loaded ?? Lazy) as ComponentType<object>;
    return (
      <Suspense fallback={null}>
        <Component {...props} />
      </Suspense>
    );
  };
}
