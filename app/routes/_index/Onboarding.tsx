import { Form, Link } from "@remix-run/react";
import type { OnboardingIcon, OnboardingSlide } from "~/content/onboarding";
import { Icon, type IconName } from "~/components/shared";
import { buttonClass } from "~/components/ui/button";

const SLIDE_ICONS: Record<OnboardingIcon, IconName> = { tasks: "tasks", referrals: "referrals", withdraw: "wallet" };

/** docs/product.md, "Onboarding": the slide lives in the URL (?slide=), completion posts to the server. */
export function Onboarding({ slides, index }: { slides: readonly OnboardingSlide[]; index: number }) {
  const slide = slides[index]!;
  const last = index === slides.length - 1;
  return (
    <div className="flex min-h-[calc(100dvh-3.5rem)] flex-col">
      <div className="flex justify-end">
        <Form method="post">
          <button
            name="intent"
            value="complete-onboarding"
            className="h-11 rounded-full px-4 text-sm font-semibold text-muted hover:bg-black/5 active:bg-black/10"
          >
            Skip
          </button>
        </Form>
      </div>
      <div className="flex flex-1 flex-col items-center justify-center text-center" aria-live="polite">
        <div className="relative mb-10">
          <div className="absolute inset-0 -m-6 rounded-full bg-brand-200/50 blur-2xl" aria-hidden="true" />
          <span className="relative inline-flex size-32 items-center justify-center rounded-[2.25rem] bg-gradient-to-br from-brand-500 to-brand-700 text-white shadow-xl shadow-brand-600/30">
            <Icon name={SLIDE_ICONS[slide.icon]} className="size-14 [stroke-width:1.75]" />
          </span>
        </div>
        <h1 className="max-w-xs text-2xl font-bold tracking-tight">{slide.title}</h1>
        <p className="mt-3 max-w-xs text-base leading-relaxed text-muted">{slide.description}</p>
      </div>
      <div className="space-y-8 pb-4">
        <ol className="flex justify-center gap-2" aria-label={`Slide ${index + 1} of ${slides.length}`}>
          {slides.map((item, dot) => (
            <li
              key={item.title}
              aria-current={dot === index ? "step" : undefined}
              className={`h-2 rounded-full transition-all ${dot === index ? "w-6 bg-brand-600" : "w-2 bg-brand-200"}`}
            />
          ))}
        </ol>
        {last ? (
          <Form method="post">
            <button name="intent" value="complete-onboarding" className={buttonClass({ block: true })}>
              Get Started
            </button>
          </Form>
        ) : (
          <Link to={`/?slide=${index + 1}`} replace className={buttonClass({ block: true })}>
            Next
            <Icon name="forward" className="size-5" />
          </Link>
        )}
      </div>
    </div>
  );
}
