/**
 * The code most pages share, in one module so that the build puts it in one file.
 *
 * The browser build (esbuild, split by route) gives every module used by a different set of
 * pages a file of its own: Card for seven pages, Banner for five, ... a dozen small files per
 * page, each a request and each too small to compress well, which cost about 5 KB on every page. A module reached from here is reached by
 * every module that imports this one, so the build keeps all of them together in one file.
 *
 * The rule that keeps it so: root.tsx, every route module and every lazily loaded component
 * (lib/lazy-component.tsx) imports something from here (route modules their ErrorBoundary). Other
 * modules import what they need from where it is defined. One name per module is enough: the
 * build follows the import whatever it names. Put a module here when several pages use it, or
 * when it is so small that a file of its own costs more than it weighs (`npm run bench:js`).
 */
export { ErrorScreen, RouteErrorBoundary } from "./RouteError";
export { NotFound } from "./NotFound";
export { Icon, Spinner, type IconName } from "./ui/Icon";
export { buttonClass } from "./ui/button";
export { Card } from "./ui/Card";
export { Banner } from "./ui/Banner";
export { PageHeader } from "./ui/PageHeader";
export { LinkTabs } from "./ui/LinkTabs";
export { SectionError } from "./ui/SectionError";
export { FormBanner } from "./forms/FormBanner";
export { SubmitButton } from "./forms/SubmitButton";
export { loadWithDocumentPolicy } from "../lib/document-policy";
export { formErrors } from "../lib/form-replies";
export { lazyComponent } from "../lib/lazy-component";
export { pageMeta } from "../lib/meta";
export { BARE_SCREEN } from "../lib/shell";
export { showToast } from "../lib/toasts";
export { authHref } from "../domain/urls";
export { useHydrated } from "../lib/use-hydrated";
export { useIsPending } from "../lib/use-is-pending";
export { useLiveRefresh } from "../lib/use-live-refresh";
export { MIN_PASSWORD_LENGTH } from "../domain/constants";
export { formatDate } from "../domain/dates";
export { initials } from "../domain/display-name";
export { formatDollars } from "../domain/money";
