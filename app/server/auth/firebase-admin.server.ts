import { cert, getApps, initializeApp, type App } from "firebase-admin/app";
import { getAuth, type Auth } from "firebase-admin/auth";
import { getEnv } from "../runtime/env.server";

const APP_NAME = "rewards-server";

/** The firebase-admin Auth client; talks to the emulator when FIREBASE_AUTH_EMULATOR_HOST is set. */
export function getAdminAuth(): Auth {
  const { projectId, emulatorHost, serviceAccount } = getEnv().firebase;
  // firebase-admin reads the emulator host from the environment itself.
  if (emulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = emulatorHost;
  const existing = getApps().find((app) => app.name === APP_NAME);
  const app: App =
    existing ??
    initializeApp(
      serviceAccount ? { projectId, credential: cert(JSON.parse(serviceAccount)) } : { projectId },
      APP_NAME,
    );
  return getAuth(app);
}

/** Firebase could not be reached (network, outage), as opposed to refusing a token. */
export function isFirebaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("app/") || code === "auth/internal-error");
}
