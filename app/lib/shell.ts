/**
 * How a route is framed. Every route that draws its own full screen (no bottom bar, no profile
 * button) says so in its `handle`, as a function of its loader data; one that needs the whole
 * width of a desktop screen (the operator console) says so too.
 */
export interface ShellHandle {
  bareScreen: (data: unknown) => boolean;
  wideScreen?: (data: unknown) => boolean;
}

export const BARE_SCREEN: ShellHandle = { bareScreen: () => true };

/**
 * The operator console: its own side navigation, the whole width. Only once its loader let the
 * person in: the 404 it answers everyone else is framed exactly as the app's other 404 pages.
 */
export const CONSOLE_SCREEN: ShellHandle = { bareScreen: () => true, wideScreen: (data) => data != null };
