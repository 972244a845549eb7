/**
 * How a route is framed. Every route that draws its own full screen (no bottom bar, no profile
 * button) says so in its `handle`, as a function of its loader data.
 */
export interface ShellHandle {
  bareScreen: (data: unknown) => boolean;
}

export const BARE_SCREEN: ShellHandle = { bareScreen: () => true };
