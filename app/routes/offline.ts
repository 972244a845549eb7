// GET /offline: the page the service worker shows when the network is gone (server/runtime/offline-page.server.ts).
import { methodNotAllowed } from "~/server/http/responses.server";
import { offlinePage } from "~/server/runtime/offline-page.server";

export const loader = () => offlinePage();

export const action = () => methodNotAllowed("GET");
