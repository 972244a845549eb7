import { lazy, Suspense, useState, type ComponentType } from "react";

/** A lazily loaded component, and a way to start its download before it is first shown. */
export type LazyComponent<Props extends object> = ComponentType<Props> & {
  /** Starts the download (once): call it when showing the component has become likely, e.g. on a submit. */
  preload: () => void;
};

/**
 * A component that only some visits show (a dialog, a sheet, another tab, the onboarding, a step
 * an action asks for), whose code the browser downloads when it is first shown, or when `preload`
 * says it is about to be, rather than with the page: the pages carry less JavaScript before any
 * interaction. The server loads it when it starts and renders it synchronously, so the HTML is
 * complete with or without JavaScript. In the browser a showing before the download has ended
 * waits for it: hydration keeps the server's HTML meanwhile, and a showing after a navigation
 * renders nothing until then; once downloaded it renders at once.
 *
 * The module loaded must import something from components/shared.ts (that file says why).
 */
export function lazyComponent<Props extends object>(load: () => Promise<ComponentType<Props>>): LazyComponent<Props> {
  let loaded: ComponentType<Props> | undefined;
  let download: Promise<ComponentType<Props>> | undefined;
  const downloadOnce = () =>
    (download ??= load().then((component) => {
      loaded = component;
      return component;
    }));
  const Lazy = lazy(() => downloadOnce().then((component) => ({ default: component })));
  if (typeof document === "undefined") void downloadOnce();
  // The same Suspense boundary on both sides, so that hydration finds what the server sent. Each
  // showing keeps the component it started with: switching from the lazy one to `loaded` on a later
  // render would remount it and lose what was typed in it.
  function LazyComponent(props: Props) {
    const [Component] = useState(() => (loaded ?? Lazy) as ComponentType<object>);
    return (
      <Suspense fallback={null}>
        <Component {...props} />
      </Suspense>
    );
  }
  return Object.assign(LazyComponent, {
    preload: () => {
      void downloadOnce();
    },
  });
}
