/** What the app says when the network is gone: the offline page (server/runtime/offline-page.server.ts) and a page followed in the app (components/RouteError.tsx). */
export const OFFLINE_MESSAGES = {
  title: "You're offline",
  description: "Rewards needs an internet connection to show your balance and tasks. Your coins are safe.",
} as const;
