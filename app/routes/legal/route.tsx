import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Card } from "~/components/ui/Card";
import { LinkTabs } from "~/components/ui/LinkTabs";
import { PageHeader } from "~/components/ui/PageHeader";
import { findLegalDocument, LEGAL_DOCUMENTS } from "~/content/legal";
import { pageMeta } from "~/lib/meta";
import { BARE_SCREEN } from "~/lib/shell";

export const meta: MetaFunction = () => pageMeta("Legal & Privacy");
// docs/product.md, "Legal": the legal page has no bottom navigation.
export const handle = BARE_SCREEN;

export function loader({ request }: LoaderFunctionArgs) {
  return { tab: findLegalDocument(new URL(request.url).searchParams.get("tab")).id };
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function LegalRoute() {
  const { tab } = useLoaderData<typeof loader>();
  const document = findLegalDocument(tab);
  return (
    <div>
      <PageHeader title="Legal & Privacy" />
      <LinkTabs
        label="Legal documents"
        items={LEGAL_DOCUMENTS.map((item) => ({ id: item.id, label: item.tab, to: `/legal?tab=${item.id}` }))}
        current={document.id}
      />
      <Card className="mt-4">
        <h2 className="text-lg font-bold tracking-tight">{document.title}</h2>
        <p className="mt-1 text-xs text-muted">Last updated {document.updated}</p>
        <ol className="mt-5 space-y-5">
          {document.sections.map((section, index) => (
            <li key={section.title}>
              <h3 className="text-base font-semibold">
                {index + 1}. {section.title}
              </h3>
              {section.paragraphs.map((paragraph) => (
                <p key={paragraph} className="mt-2 text-sm leading-relaxed text-gray-700">
                  {paragraph}
                </p>
              ))}
            </li>
          ))}
        </ol>
      </Card>
    </div>
  );
}
