import { getApps, initializeApp } from "firebase/app";
import {
  browserPopupRedirectResolver,
  connectAuthEmulator,
  GoogleAuthProvider,
  inMemoryPersistence,
  initializeAuth,
  signInWithPopup,
  signOut,
  type Auth,
} from "firebase/auth";

export interface GoogleSignInConfig {
  apiKey: string;
  authDomain: string;
  projectId: string;
  emulatorUrl: string | null;
}

let auth: Auth | undefined;

function getBrowserAuth(config: GoogleSignInConfig): Auth {
  if (auth) return auth;
  const app =
    getApps()[0] ??
    initializeApp({ apiKey: config.apiKey, authDomain: config.authDomain, projectId: config.projectId });
  // The server keeps the session (an HttpOnly cookie): nothing is stored in the browser.
  auth = initializeAuth(app, { persistence: inMemoryPersistence, popupRedirectResolver: browserPopupRedirectResolver });
  if (config.emulatorUrl) connectAuthEmulator(auth, config.emulatorUrl, { disableWarnings: true });
  return auth;
}

/** Opens Google's account chooser in a popup and returns a fresh ID token for the server. */
export async function signInWithGoogle(config: GoogleSignInConfig): Promise<string> {
  const browserAuth = getBrowserAuth(config);
  const provider = new GoogleAuthProvider();
  provider.setCustomParameters({ prompt: "select_account" });
  const credential = await signInWithPopup(browserAuth, provider);
  const idToken = await credential.user.getIdToken();
  await signOut(browserAuth);
  return idToken;
}
