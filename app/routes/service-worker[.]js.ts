import { methodNotAllowed } from "~/server/http/responses.server";
import { OFFLINE_PAGE_VERSION } from "~/server/runtime/offline-page.server";

// GET /service-worker.js, the app's one service worker, registered by every page once it has loaded
// (entry.client.tsx) and served from the root so its scope is the whole app. It keeps the offline
// page (/offline) and shows it when a page cannot be fetched; it shows the push notifications FCM
// delivers to this browser (turned on in Profile) and opens the app when one is clicked.
// Pages still come from the network every time: nothing else is cached.
const SERVICE_WORKER = `
const OFFLINE_CACHE = "offline-${OFFLINE_PAGE_VERSION}";
const OFFLINE_URL = "/offline";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(OFFLINE_CACHE)
      .then((cache) => cache.add(new Request(OFFLINE_URL, { cache: "reload" })))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("offline-") && name !== OFFLINE_CACHE) await caches.delete(name);
      }
      // The page's request starts while the worker wakes up, rather than after.
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
      await self.clients.claim();
    })(),
  );
});

// Page loads only (GET): from the network as always; when it cannot be reached, the offline page.
self.addEventListener("fetch", (event) => {
  if (event.request.mode !== "navigate" || event.request.method !== "GET") return;
  event.respondWith(
    (async () => {
      try {
        return (await event.preloadResponse) || (await fetch(event.request));
      } catch (error) {
        const offline = await caches.match(OFFLINE_URL);
        if (offline) return offline;
        throw error;
      }
    })(),
  );
});

self.addEventListener("push", (event) => {
  let payload = {};
  try {
    payload = event.data ? event.data.json() : {};
  } catch {
    payload = { notification: { title: "Rewards", body: event.data ? event.data.text() : "" } };
  }
  const notification = payload.notification || {};
  const data = payload.data || {};
  const title = notification.title || data.title || "Rewards";
  const link = (payload.fcmOptions && payload.fcmOptions.link) || data.link || "/";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: notification.body || data.body || "",
      icon: "/icons/icon-192.png",
      data: { link },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const link = new URL((event.notification.data && event.notification.data.link) || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url.startsWith(self.location.origin));
      if (open) return open.navigate(link).then((client) => (client || open).focus());
      return self.clients.openWindow(link);
    }),
  );
});
`;

export function loader() {
  return new Response(SERVICE_WORKER, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "no-cache",
      "Service-Worker-Allowed": "/",
    },
  });
}

// Any other method: a 405 that says which to use (without an action, Remix answers "Unexpected Server Error" and logs a stack).
export const action = () => methodNotAllowed("GET");
