import { methodNotAllowed } from "~/server/http/responses.server";

// GET /service-worker.js: shows the push notifications FCM delivers to this browser and opens the
// app when one is clicked. Served from the root so its scope is the whole app.
const SERVICE_WORKER = `
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

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
      icon: "/favicon.svg",
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
