import { withoutTrailingSlashes } from "~/domain/text";
import { isIP } from "node:net";
import { z } from "zod";
import { addressKey } from "../http/ip-address.server";

// Read once at start: a missing or malformed variable stops the server with its name.
const DEV_SESSION_SECRET = "dev-only-session-secret-not-for-production-use";

/**
 * Postbacks a network (an offer wall, or the offer provider) may send in a minute before it is asked
 * to retry later, unless its setting says otherwise.
 */
export const DEFAULT_POSTBACKS_PER_MINUTE = 6_000;

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

// Every variable the server reads (.env.example lists the same, a unit test holds them equal).
const envVariables = z.object({
  // Unset means production, as remix-serve decides (it sets NODE_ENV=production when unset), so a
  // server started some other way is not quietly a development one.
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\/.+/, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  SUPABASE_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  SUPABASE_SERVICE_ROLE_KEY: optionalText,
  PGLITE_DATA_DIR: optionalText.transform((value) => value ?? ".data/pglite"),
  MIGRATIONS_DIR: optionalText.transform((value) => value ?? "supabase/migrations"),
  // The connections a server queries Postgres through at once (docs/configuration.md: about twice
  // the database server's cores; LISTEN has connections of its own beside them).
  DATABASE_POOL_SIZE: optionalText
    .transform((value) => (value === undefined ? 10 : Number(value)))
    .pipe(z.number("must be a whole number of connections").int().min(1).max(100)),
  // false: the migrations are applied by `npm run migrate`, and a server only checks they are there.
  MIGRATE_ON_START: optionalText.pipe(z.enum(["true", "false", "1", "0"], "must be true or false").optional()),
  SESSION_SECRET: optionalText.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  FIREBASE_PROJECT_ID: optionalText.pipe(
    z
      .string()
      .regex(/^[a-z0-9-]{4,40}$/, "must be a Firebase project id (lowercase letters, digits, -)")
      .optional(),
  ),
  FIREBASE_API_KEY: optionalText,
  FIREBASE_AUTH_DOMAIN: optionalText,
  FIREBASE_AUTH_EMULATOR_HOST: optionalText.pipe(
    z
      .string()
      .regex(/^[\w.-]+:\d+$/, "must be host:port, e.g. 127.0.0.1:9099")
      .optional(),
  ),
  FIREBASE_SERVICE_ACCOUNT: optionalText.pipe(
    z
      .string()
      .refine((text) => {
        try {
          const parsed = JSON.parse(text) as Record<string, unknown>;
          return typeof parsed.private_key === "string" && typeof parsed.client_email === "string";
        } catch {
          return false;
        }
      }, "must be a service-account JSON document with private_key and client_email")
      .optional(),
  ),
  // Tests only: lets a production build use the Auth emulator, whose tokens are not signed.
  ALLOW_AUTH_EMULATOR_IN_PRODUCTION: optionalText.pipe(z.enum(["true", "false"], "must be true or false").optional()),
  // Tests only (the Auth emulator, or outside production): `off` asks no code by email whatever
  // app_config says (docs/decisions/092), for the suites whose apps send no mail.
  EMAIL_CODES: optionalText.pipe(z.enum(["on", "off"], "must be on or off").optional()),
  // Development and tests only: `off` lets the console in without its authenticator (docs/decisions/093).
  OPERATOR_2FA: optionalText.pipe(z.enum(["on", "off"], "must be on or off").optional()),
  // How long one verification of a session cookie is reused (a log out elsewhere ends it sooner).
  SESSION_VERIFY_CACHE_MS: optionalText
    .transform((value) => (value === undefined ? 2_000 : Number(value)))
    .pipe(z.number("must be a number of milliseconds").int().min(0).max(600_000)),
  AUTH_AUTHORIZED_DOMAINS: optionalText,
  // true (one proxy), false, how many proxies of ours each append to X-Forwarded-For, or their
  // addresses, comma-separated (docs/configuration.md).
  TRUST_PROXY: optionalText.pipe(
    z
      .string()
      .refine(
        (value) => /^(true|false|\d)$/.test(value) || proxyAddresses(value) !== null,
        "must be true, false, the number of proxies in front of the app (0 to 9) or their IP addresses, comma-separated",
      )
      .optional(),
  ),
  // The ceiling on sign-ins, sign-ups and password resets across everyone, each, per minute.
  AUTH_GLOBAL_LIMIT_PER_MINUTE: optionalText
    .transform((value) => (value === undefined ? 300 : Number(value)))
    .pipe(z.number("must be a whole number").int().min(1).max(1_000_000)),
  LEADERBOARD_REFRESH_SECONDS: optionalText
    .transform((value) => (value === undefined ? 900 : Number(value)))
    .pipe(z.number("must be a number of seconds").int().min(0).max(86_400)),
  // How often each server credits the referrals whose friend's earnings have cleared (0: never; docs/decisions/067).
  REFERRAL_SETTLE_INTERVAL_SECONDS: optionalText
    .transform((value) => (value === undefined ? 60 : Number(value)))
    .pipe(z.number("must be a number of seconds").int().min(0).max(86_400)),
  // How often each server merges the dashboard's counter rows (0: never; docs/operator-console.md, "Dashboard").
  DASHBOARD_FOLD_INTERVAL_SECONDS: optionalText
    .transform((value) => (value === undefined ? 300 : Number(value)))
    .pipe(z.number("must be a number of seconds").int().min(0).max(86_400)),
  // Hosts whose offer images may be fetched over plain http (the tests' stand-ins); every other image
  // is fetched over https only (docs/decisions/099).
  OFFER_IMAGE_HTTP_HOSTS: optionalText
    .transform((value) =>
      (value ?? "")
        .split(",")
        .map((host) => host.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[a-z0-9.-]{1,100}$/, "must be host names separated by commas"))),
  // How long each server keeps the feed of recent cash-outs before reading it again, and so how soon
  // open pages see a new one (docs/decisions/098).
  CASHOUT_FEED_REFRESH_SECONDS: optionalText
    .transform((value) => (value === undefined ? 30 : Number(value)))
    .pipe(z.number("must be a number of seconds").int().min(1).max(3_600)),
  // How often each server asks the database to settle last month's prizes (0: never; docs/decisions/097).
  PRIZE_CLOSE_INTERVAL_SECONDS: optionalText
    .transform((value) => (value === undefined ? 600 : Number(value)))
    .pipe(z.number("must be a number of seconds").int().min(0).max(86_400)),
  OFFER_PROVIDER: optionalText.pipe(
    z
      .string()
      .regex(/^[a-z0-9-]{2,40}$/, "must be a short lowercase name such as acme-offers")
      .optional(),
  ),
  OFFER_PROVIDER_API_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  OFFER_PROVIDER_API_KEY: optionalText,
  // How long one list of the provider's offers is served (docs/product.md, "Constants": five minutes).
  OFFER_REFRESH_SECONDS: optionalText
    .transform((value) => (value === undefined ? 300 : Number(value)))
    .pipe(z.number("must be a number of seconds").int().min(1).max(3_600)),
  // A rates endpoint for the rupee rate of UPI cash-outs (docs/decisions/087): JSON with
  // `rates.INR` per US dollar, such as https://api.frankfurter.dev/v1/latest?base=USD&symbols=INR.
  INR_RATE_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  INR_RATE_INTERVAL_SECONDS: optionalText
    .transform((value) => (value === undefined ? 3_600 : Number(value)))
    .pipe(z.number("must be a number of seconds").int().min(1).max(86_400)),
  // RazorpayX Payouts for UPI (docs/rails/razorpayx.md): without a key id UPI stays the operator's hand flow.
  RAZORPAYX_KEY_ID: optionalText,
  RAZORPAYX_KEY_SECRET: optionalText,
  RAZORPAYX_ACCOUNT_NUMBER: optionalText.pipe(
    z
      .string()
      .regex(/^[0-9]{6,30}$/, "must be the digits of your RazorpayX account number")
      .optional(),
  ),
  RAZORPAYX_WEBHOOK_SECRET: optionalText,
  RAZORPAYX_API_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  RAZORPAYX_QUEUE_IF_LOW_BALANCE: optionalText.pipe(z.enum(["true", "false"], "must be true or false").optional()),
  // Check each UPI ID with RazorpayX before its first payout (RazorpayX Lite only, not in test mode).
  RAZORPAYX_VALIDATE_UPI: optionalText.pipe(z.enum(["true", "false"], "must be true or false").optional()),
  // How often each server pays the approved UPI cash-outs and reads back the unsettled ones.
  RAZORPAYX_INTERVAL_SECONDS: optionalText
    .transform((value) => (value === undefined ? 30 : Number(value)))
    .pipe(z.number("must be a number of seconds").int().min(1).max(3_600)),
  // A payout with no final word for this long is read back (GET /v1/payouts/{id}).
  RAZORPAYX_SETTLE_AFTER_MINUTES: optionalText
    .transform((value) => (value === undefined ? 30 : Number(value)))
    .pipe(z.number("must be a number of minutes").min(0).max(10_080)),
  // Gift cards through Tremendous (docs/rails/tremendous.md): without a key, Withdraw offers no gift card.
  TREMENDOUS_API_KEY: optionalText.pipe(
    z
      .string()
      .regex(/^(TEST|PROD)_[A-Za-z0-9_-]{8,200}$/, "must be a Tremendous API key (TEST_… or PROD_…)")
      .optional(),
  ),
  TREMENDOUS_API_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  TREMENDOUS_WEBHOOK_PRIVATE_KEY: optionalText,
  // The countries whose cards are offered (ISO 3166-1 alpha-2, comma-separated).
  TREMENDOUS_COUNTRIES: optionalText
    .transform((value) => (value ?? "US,IN").split(",").map((country) => country.trim().toUpperCase()))
    .pipe(
      z
        .array(z.string().regex(/^[A-Z]{2}$/, "must be two-letter country codes, comma-separated"))
        .min(1)
        .max(20),
    ),
  // How often each server orders the approved gift cards and reads back the unsettled ones.
  TREMENDOUS_INTERVAL_SECONDS: optionalText
    .transform((value) => (value === undefined ? 30 : Number(value)))
    .pipe(z.number("must be a number of seconds").int().min(1).max(3_600)),
  // An order with no final word for this long is read back (GET /orders/{id}).
  TREMENDOUS_SETTLE_AFTER_MINUTES: optionalText
    .transform((value) => (value === undefined ? 30 : Number(value)))
    .pipe(z.number("must be a number of minutes").min(0).max(10_080)),
  // How often the catalogue is read again (the last good list is kept when a read fails).
  TREMENDOUS_CATALOGUE_MINUTES: optionalText
    .transform((value) => (value === undefined ? 360 : Number(value)))
    .pipe(z.number("must be a number of minutes").min(1).max(10_080)),
  // Network signals from ipinfo (docs/decisions/091): without a token, none are asked for.
  IPINFO_TOKEN: optionalText,
  IPINFO_API_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  // How long a person may wait for the answer before it is taken as no signal.
  IPINFO_TIMEOUT_MS: optionalText
    .transform((value) => (value === undefined ? 1_500 : Number(value)))
    .pipe(z.number("must be a number of milliseconds").int().min(50).max(10_000)),
  PAYPAL_CLIENT_ID: optionalText,
  PAYPAL_CLIENT_SECRET: optionalText,
  PAYPAL_MODE: optionalText.pipe(z.enum(["sandbox", "live"], "must be sandbox or live").optional()),
  PAYPAL_API_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  PAYPAL_WEBHOOK_ID: optionalText,
  // Set by the operator commands (build/payouts.js, build/walls.js), which reach the database,
  // PayPal and the offer walls only: they need no session secret and no Firebase.
  APP_ROLE: z.enum(["server", "operator"]).default("server"),
  ACCOUNT_HASH_SECRET: optionalText.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  FIREBASE_APP_ID: optionalText,
  FIREBASE_MESSAGING_SENDER_ID: optionalText,
  FIREBASE_VAPID_KEY: optionalText,
  OFFER_POSTBACK_SECRET: optionalText.pipe(z.string().min(16, "must be at least 16 characters").optional()),
  // The provider's postbacks a minute before it is asked to retry later (as WALL_{NAME}_POSTBACKS_PER_MINUTE).
  OFFER_POSTBACKS_PER_MINUTE: optionalText
    .transform((value) => (value === undefined ? DEFAULT_POSTBACKS_PER_MINUTE : Number(value)))
    .pipe(z.number("must be a whole number").int().min(1).max(1_000_000)),
  // Notifications (docs/notifications.md): email through SMTP, push through FCM HTTP v1 with the service account.
  SMTP_URL: optionalText.pipe(
    z
      .url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@host:587" })
      .optional(),
  ),
  EMAIL_FROM: optionalText.pipe(
    z
      .string()
      .regex(
        /^(?:[^<>@]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/,
        "must be an address such as no-reply@example.com or Rewards <no-reply@example.com>",
      )
      .optional(),
  ),
  FCM_API_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  FCM_TOKEN_URI: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  PUBLIC_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  NOTIFY_INTERVAL_SECONDS: optionalText
    .transform((value) => (value === undefined ? 60 : Number(value)))
    .pipe(z.number("must be a number of seconds").int().min(1).max(3600)),
  NOTIFY_RETRY_SECONDS: optionalText
    .transform((value) => (value === undefined ? 60 : Number(value)))
    .pipe(z.number("must be a number of seconds").int().min(1).max(3600)),
});

/** The names of every environment variable the app reads. */
export const ENV_VARIABLE_NAMES = Object.keys(envVariables.shape);

const envSchema = envVariables
  .superRefine((env, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (env.SUPABASE_URL && !env.SUPABASE_SERVICE_ROLE_KEY) {
      issue("SUPABASE_SERVICE_ROLE_KEY", "is required when SUPABASE_URL is set");
    }
    if (env.SUPABASE_SERVICE_ROLE_KEY && !env.SUPABASE_URL) {
      issue("SUPABASE_URL", "is required when SUPABASE_SERVICE_ROLE_KEY is set");
    }
    if (env.OFFER_PROVIDER && !env.OFFER_PROVIDER_API_URL) {
      issue("OFFER_PROVIDER_API_URL", "is required when OFFER_PROVIDER is set");
    }
    if (Boolean(env.PAYPAL_CLIENT_ID) !== Boolean(env.PAYPAL_CLIENT_SECRET)) {
      issue(
        env.PAYPAL_CLIENT_ID ? "PAYPAL_CLIENT_SECRET" : "PAYPAL_CLIENT_ID",
        "PayPal needs both the client id and secret",
      );
    }
    // RazorpayX half set would leave UPI paid by hand while the operator thinks it pays itself.
    const razorpayx = [env.RAZORPAYX_KEY_ID, env.RAZORPAYX_KEY_SECRET, env.RAZORPAYX_ACCOUNT_NUMBER];
    if (razorpayx.some(Boolean) && !razorpayx.every(Boolean)) {
      issue(
        !env.RAZORPAYX_KEY_ID
          ? "RAZORPAYX_KEY_ID"
          : !env.RAZORPAYX_KEY_SECRET
            ? "RAZORPAYX_KEY_SECRET"
            : "RAZORPAYX_ACCOUNT_NUMBER",
        "RazorpayX needs the key id, the key secret and the account number",
      );
    }
    // Production keys with a guessed address: the sources disagree on it (docs/rails/tremendous.md).
    if (env.TREMENDOUS_API_KEY?.startsWith("PROD_") && !env.TREMENDOUS_API_URL) {
      issue("TREMENDOUS_API_URL", "is required with a production key (PROD_…): set the address Tremendous gave you");
    }
    if (env.DATABASE_URL && env.SUPABASE_URL) {
      issue("DATABASE_URL", "set either DATABASE_URL or SUPABASE_URL, not both");
    }
    if (env.APP_ROLE === "operator") return;
    const development = env.NODE_ENV === "development" || env.NODE_ENV === "test";
    if (!development && !env.SESSION_SECRET) {
      issue("SESSION_SECRET", "is required unless NODE_ENV is development or test (at least 32 random characters)");
    }
    // firebase-admin accepts the emulator's unsigned tokens: anyone could sign in as anyone.
    const emulatorAllowed = env.NODE_ENV !== "production" || env.ALLOW_AUTH_EMULATOR_IN_PRODUCTION === "true";
    // A production server asks codes by email (docs/decisions/092): without a way to send them, no
    // one could sign in on a new device or cash out. Said at start rather than at every sign-in.
    if (env.NODE_ENV === "production" && env.EMAIL_CODES !== "off" && !env.SMTP_URL) {
      issue(
        "SMTP_URL",
        "is required in production: codes by email (a new device's sign-in, a cash-out) are sent through it",
      );
    }
    // The console moves money: in a deployment it always asks for the authenticator.
    if (env.OPERATOR_2FA === "off" && env.NODE_ENV === "production" && !env.FIREBASE_AUTH_EMULATOR_HOST) {
      issue(
        "OPERATOR_2FA",
        "may be off only in development or tests (the Auth emulator): the operator console needs an authenticator in production",
      );
    }
    // Codes by email defend people's money: only a test against the Auth emulator may do without them.
    if (env.EMAIL_CODES === "off" && env.NODE_ENV === "production" && !env.FIREBASE_AUTH_EMULATOR_HOST) {
      issue(
        "EMAIL_CODES",
        "may be off in production only with the Auth emulator (tests): codes by email keep a stolen password from cashing out",
      );
    }
    if (env.FIREBASE_AUTH_EMULATOR_HOST && !emulatorAllowed) {
      issue(
        "FIREBASE_AUTH_EMULATOR_HOST",
        "must not be set in production: the Auth emulator's tokens are not signed, so anyone could sign in as anyone (tests only: ALLOW_AUTH_EMULATOR_IN_PRODUCTION=true)",
      );
    }
    if (!env.FIREBASE_AUTH_EMULATOR_HOST) {
      if (!env.FIREBASE_API_KEY) {
        issue("FIREBASE_API_KEY", "is required unless FIREBASE_AUTH_EMULATOR_HOST is set");
      }
      if (!env.FIREBASE_PROJECT_ID) {
        issue("FIREBASE_PROJECT_ID", "is required unless FIREBASE_AUTH_EMULATOR_HOST is set");
      } else if (env.FIREBASE_PROJECT_ID.startsWith("demo-")) {
        issue("FIREBASE_PROJECT_ID", "a demo- project only exists in the Auth emulator");
      }
    }
  })
  .transform((env) => {
    const projectId = env.FIREBASE_PROJECT_ID ?? "demo-rewards";
    const publicUrl = env.PUBLIC_URL ? withoutTrailingSlashes(env.PUBLIC_URL) : null;
    return {
      nodeEnv: env.NODE_ENV,
      isProduction: env.NODE_ENV === "production",
      emailCodes: env.EMAIL_CODES !== "off",
      operatorTwoFactor: env.OPERATOR_2FA !== "off",
      database: env.SUPABASE_URL
        ? ({ kind: "supabase", url: env.SUPABASE_URL, serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY! } as const)
        : env.DATABASE_URL
          ? ({ kind: "postgres", url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE } as const)
          : ({ kind: "pglite", dataDir: env.PGLITE_DATA_DIR } as const),
      migrationsDir: env.MIGRATIONS_DIR,
      migrateOnStart: env.MIGRATE_ON_START !== "false" && env.MIGRATE_ON_START !== "0",
      sessionSecret: env.SESSION_SECRET ?? DEV_SESSION_SECRET,
      sessionVerifyCacheMs: env.SESSION_VERIFY_CACHE_MS,
      // Keys the hashes kept of deleted accounts' emails and payout addresses (docs/operations.md).
      accountHashSecret: env.ACCOUNT_HASH_SECRET ?? env.SESSION_SECRET ?? DEV_SESSION_SECRET,
      firebase: {
        projectId,
        apiKey: env.FIREBASE_API_KEY ?? "demo-api-key",
        authDomain: env.FIREBASE_AUTH_DOMAIN ?? `${projectId}.firebaseapp.com`,
        emulatorHost: env.FIREBASE_AUTH_EMULATOR_HOST,
        serviceAccount: env.FIREBASE_SERVICE_ACCOUNT,
        // The browser's part of web push (public values of the Firebase web app).
        webPush:
          env.FIREBASE_APP_ID && env.FIREBASE_MESSAGING_SENDER_ID && env.FIREBASE_VAPID_KEY
            ? {
                appId: env.FIREBASE_APP_ID,
                messagingSenderId: env.FIREBASE_MESSAGING_SENDER_ID,
                vapidKey: env.FIREBASE_VAPID_KEY,
              }
            : null,
      },
      leaderboardRefreshMs: env.LEADERBOARD_REFRESH_SECONDS * 1000,
      // How long one list of offers is served: the provider's, and each offer wall's catalogue.
      offerRefreshMs: env.OFFER_REFRESH_SECONDS * 1000,
      referralSettleIntervalMs: env.REFERRAL_SETTLE_INTERVAL_SECONDS * 1000,
      dashboardFoldIntervalMs: env.DASHBOARD_FOLD_INTERVAL_SECONDS * 1000,
      prizeCloseIntervalMs: env.PRIZE_CLOSE_INTERVAL_SECONDS * 1000,
      cashoutFeedRefreshMs: env.CASHOUT_FEED_REFRESH_SECONDS * 1000,
      offerImageHttpHosts: env.OFFER_IMAGE_HTTP_HOSTS,
      offerProvider: env.OFFER_PROVIDER
        ? {
            name: env.OFFER_PROVIDER,
            apiUrl: env.OFFER_PROVIDER_API_URL!,
            apiKey: env.OFFER_PROVIDER_API_KEY ?? null,
            postbackSecret: env.OFFER_POSTBACK_SECRET ?? null,
            postbacksPerMinute: env.OFFER_POSTBACKS_PER_MINUTE,
            refreshMs: env.OFFER_REFRESH_SECONDS * 1000,
          }
        : null,
      // Behind a reverse proxy that sets X-Forwarded-Host (its first value is the browser's host).
      trustProxy: trustedProxyHops(env.TRUST_PROXY) > 0 || proxyAddresses(env.TRUST_PROXY ?? "") !== null,
      // How many X-Forwarded-For entries, from the right, our own proxies wrote (client-address.server.ts).
      trustedProxyHops: trustedProxyHops(env.TRUST_PROXY),
      // Or our proxies by address: the client is the right-most address that is none of them.
      trustedProxies: (env.TRUST_PROXY ? proxyAddresses(env.TRUST_PROXY) : null) ?? [],
      authGlobalLimitPerMinute: env.AUTH_GLOBAL_LIMIT_PER_MINUTE,
      // The rupee rate read from a rates endpoint, every interval (docs/decisions/087); null: set by hand.
      inrRate: env.INR_RATE_URL ? { url: env.INR_RATE_URL, intervalMs: env.INR_RATE_INTERVAL_SECONDS * 1000 } : null,
      // RazorpayX Payouts for UPI (docs/rails/razorpayx.md): without credentials UPI is paid by hand.
      razorpayx:
        env.RAZORPAYX_KEY_ID && env.RAZORPAYX_KEY_SECRET && env.RAZORPAYX_ACCOUNT_NUMBER
          ? {
              keyId: env.RAZORPAYX_KEY_ID,
              keySecret: env.RAZORPAYX_KEY_SECRET,
              accountNumber: env.RAZORPAYX_ACCOUNT_NUMBER,
              webhookSecret: env.RAZORPAYX_WEBHOOK_SECRET ?? null,
              apiUrl: env.RAZORPAYX_API_URL ?? "https://api.razorpay.com",
              queueIfLowBalance: env.RAZORPAYX_QUEUE_IF_LOW_BALANCE !== "false",
              validateUpi: env.RAZORPAYX_VALIDATE_UPI === "true",
              intervalMs: env.RAZORPAYX_INTERVAL_SECONDS * 1000,
              settleAfterSeconds: Math.round(env.RAZORPAYX_SETTLE_AFTER_MINUTES * 60),
            }
          : null,
      // Gift cards through Tremendous (docs/rails/tremendous.md): without a key none are offered.
      tremendous: env.TREMENDOUS_API_KEY
        ? {
            apiKey: env.TREMENDOUS_API_KEY,
            live: env.TREMENDOUS_API_KEY.startsWith("PROD_"),
            apiUrl: env.TREMENDOUS_API_URL ?? "https://testflight.tremendous.com/api/v2",
            webhookPrivateKey: env.TREMENDOUS_WEBHOOK_PRIVATE_KEY ?? null,
            countries: env.TREMENDOUS_COUNTRIES,
            intervalMs: env.TREMENDOUS_INTERVAL_SECONDS * 1000,
            settleAfterSeconds: Math.round(env.TREMENDOUS_SETTLE_AFTER_MINUTES * 60),
            catalogueMs: Math.round(env.TREMENDOUS_CATALOGUE_MINUTES * 60_000),
          }
        : null,
      // IP intelligence (docs/decisions/091): VPN, proxy, Tor, relay, hosting and the country of an address.
      ipinfo: env.IPINFO_TOKEN
        ? {
            token: env.IPINFO_TOKEN,
            apiUrl: env.IPINFO_API_URL ?? "https://ipinfo.io",
            timeoutMs: env.IPINFO_TIMEOUT_MS,
          }
        : null,
      // PayPal Payouts (docs/operations.md): without credentials PayPal withdrawals wait for the operator.
      paypal: env.PAYPAL_CLIENT_ID
        ? {
            clientId: env.PAYPAL_CLIENT_ID,
            clientSecret: env.PAYPAL_CLIENT_SECRET!,
            mode: env.PAYPAL_MODE ?? "sandbox",
            apiUrl:
              env.PAYPAL_API_URL ??
              (env.PAYPAL_MODE === "live" ? "https://api-m.paypal.com" : "https://api-m.sandbox.paypal.com"),
            webhookId: env.PAYPAL_WEBHOOK_ID ?? null,
          }
        : null,
      // The app's address as people reach it, for the links in pushes and emails.
      publicUrl,
      notifications: {
        email: env.SMTP_URL
          ? {
              smtpUrl: env.SMTP_URL,
              from: env.EMAIL_FROM ?? `Rewards <no-reply@${publicUrl ? new URL(publicUrl).hostname : "localhost"}>`,
            }
          : null,
        push: env.FIREBASE_SERVICE_ACCOUNT ? pushConfig(env.FIREBASE_SERVICE_ACCOUNT, projectId, env) : null,
        intervalMs: env.NOTIFY_INTERVAL_SECONDS * 1000,
        retrySeconds: env.NOTIFY_RETRY_SECONDS,
      },
      authorizedDomainsOverride: env.AUTH_AUTHORIZED_DOMAINS?.split(",")
        .map((domain) => domain.trim().toLowerCase())
        .filter(Boolean),
    };
  });

function trustedProxyHops(value: string | undefined): number {
  if (value === "true") return 1;
  return value === undefined || value === "false" || !/^\d$/.test(value) ? 0 : Number(value);
}

/** TRUST_PROXY as a list of our proxies' IP addresses (each as addressKey keeps it), or null when it is not one. */
function proxyAddresses(value: string): string[] | null {
  if (!/[.:]/.test(value)) return null;
  const keys = value.split(",").map((entry) => (isIP(entry.trim()) ? addressKey(entry) : null));
  return keys.every((key) => key !== null) ? (keys as string[]) : null;
}

/** FCM HTTP v1 with the service account's own key (FCM_API_URL and FCM_TOKEN_URI point tests elsewhere). */
function pushConfig(
  serviceAccountJson: string,
  projectId: string,
  env: { FCM_API_URL?: string; FCM_TOKEN_URI?: string },
) {
  const account = JSON.parse(serviceAccountJson) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  return {
    clientEmail: account.client_email as string,
    privateKey: account.private_key as string,
    privateKeyId: text(account.private_key_id) ?? null,
    projectId: text(account.project_id) ?? projectId,
    tokenUri: env.FCM_TOKEN_URI ?? text(account.token_uri) ?? "https://oauth2.googleapis.com/token",
    apiUrl: withoutTrailingSlashes(env.FCM_API_URL ?? "https://fcm.googleapis.com"),
  };
}

export type Env = z.output<typeof envSchema>;

export class EnvError extends Error {
  name = "EnvError";
}

/**
 * A bad variable found by a part of the app that reads its own (the offer walls read their
 * WALL_{NAME}_… in app/server/walls/registry.server.ts, readWalls), so the start names it with the rest.
 */
export interface EnvProblem {
  variable: string;
  message: string;
}

/**
 * Parses an environment; throws an EnvError whose message names every bad variable, `also` (the
 * problems of the variables a part of the app reads itself) after the rest.
 */
export function parseEnv(source: Record<string, string | undefined>, also: readonly EnvProblem[] = []): Env {
  const result = envSchema.safeParse(source);
  if (result.success && also.length === 0) return result.data;
  const lines = [
    ...(result.success ? [] : result.error.issues).map(
      (issue) => `  ${issue.path.join(".") || "environment"}: ${issue.message}`,
    ),
    ...also.map((problem) => `  ${problem.variable}: ${problem.message}`),
  ];
  throw new EnvError(`Invalid environment:\n${lines.join("\n")}`);
}

let cached: Env | undefined;

/** The validated environment of this process. */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/**
 * Validates this process's environment at start, `also` with it (the offer walls' problems:
 * readWalls(process.env).problems): a bad variable throws one EnvError that names them all.
 */
export function checkEnv(also: readonly EnvProblem[]): Env {
  cached = parseEnv(process.env, also);
  return cached;
}
