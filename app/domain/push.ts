import { enum as oneOf, object, string } from "zod/mini";

/** POST /api/push-tokens: this device's FCM token, to register, to check (7-day refresh) or to forget. */
export const pushTokenRequestSchema = object({
  intent: oneOf(["register", "status", "delete"], "Unknown request"),
  token: string("A push token is required"),
});
