import { Link } from "@remix-run/react";
import { OFFER_BADGE_LABELS, type OfferBadge, type OfferView, type WallCardView } from "~/domain/featured-offers";
import { coinsToDollars, formatCoins, formatDollars } from "~/domain/money";
import { OFFER_KINDS, kindsPhrase, type OfferKind } from "~/domain/offer-kinds";
import { Icon, type IconName } from "~/components/ui/Icon";

// Earn's offer walls (docs/offer-walls.md, "Offers in Earn"; decision 100): the featured offers
// that lead the page, a card per wall, and each listing wall's first offers. Every offer is a plain
// link (JavaScript or not) to the app's route that sends the person to the network with their wall
// id; the network's postback pays it.

/** Where an offer's link goes: the app's redirect, never the network's URL. */
const offerHref = (offer: OfferView) => `/earn/walls/${offer.network}/offers/${encodeURIComponent(offer.id)}`;

const KIND_ICONS: Record<OfferKind, IconName> = {
  game: "game",
  survey: "survey",
  quiz: "survey",
  trial: "gift",
  shopping: "wallet",
  signup: "mail",
  app: "app",
};

const BADGE_STYLES: Record<OfferBadge, string> = {
  new: "bg-sky-50 text-sky-800",
  "high-paying": "bg-emerald-50 text-emerald-800",
};

function OfferBadges({ badges }: { badges: readonly OfferBadge[] }) {
  if (badges.length === 0) return null;
  return (
    <span className="flex flex-wrap gap-1.5">
      {badges.map((badge) => (
        <span key={badge} className={`rounded-full px-2 py-0.5 text-[11px] font-semibold ${BADGE_STYLES[badge]}`}>
          {OFFER_BADGE_LABELS[badge]}
        </span>
      ))}
    </span>
  );
}

function OfferImage({ offer, large = false }: { offer: OfferView; large?: boolean }) {
  const size = large ? "size-14" : "size-11";
  return offer.image ? (
    <img
      src={offer.image}
      alt=""
      width={large ? 56 : 44}
      height={large ? 56 : 44}
      loading="lazy"
      decoding="async"
      className={`${size} shrink-0 rounded-xl bg-brand-50 object-cover`}
    />
  ) : (
    <span className={`inline-flex ${size} shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700`}>
      <Icon name={offer.kind ? KIND_ICONS[offer.kind] : "compass"} className="size-5" />
    </span>
  );
}

/** Its kind and what it usually takes, as one line of small text (nothing when neither is known). */
function OfferFacts({ offer, withWall = false }: { offer: OfferView; withWall?: boolean }) {
  // Each fact with its own key; the time is the one with a clock.
  const facts = [
    offer.kind ? { key: "kind", text: OFFER_KINDS[offer.kind].label, clock: false } : null,
    offer.time ? { key: "time", text: offer.time, clock: true } : null,
    withWall ? { key: "wall", text: offer.wallLabel, clock: false } : null,
  ].filter((fact) => fact !== null);
  if (facts.length === 0) return null;
  return (
    <span className="mt-1 flex flex-wrap items-center gap-x-1.5 text-xs text-muted">
      {facts.map((fact, index) => (
        <span key={fact.key} className="inline-flex items-center gap-1">
          {index > 0 ? <span aria-hidden="true">·</span> : null}
          {fact.clock ? <Icon name="clock" className="size-3.5" /> : null}
          {fact.text}
        </span>
      ))}
    </span>
  );
}

/** The offers that lead Earn: the best-paying and newest of every wall (decision 100). */
export function FeaturedOffers({ offers, coinsPerDollar }: { offers: OfferView[]; coinsPerDollar: number }) {
  return (
    <section aria-labelledby="featured-offers" className="space-y-2.5">
      <div>
        <h2 id="featured-offers" className="text-base font-semibold text-ink">
          Featured offers
        </h2>
        <p className="text-xs text-muted">
          Coins arrive once the offer&apos;s network confirms it. Times are typical for each kind of offer.
        </p>
      </div>
      <ul aria-label="Featured offers" className="grid gap-2.5 sm:grid-cols-2">
        {offers.map((offer) => (
          <li key={`${offer.network}/${offer.id}`}>
            <a
              href={offerHref(offer)}
              className="flex h-full items-start gap-3 rounded-2xl border border-line bg-white p-3.5 shadow-sm transition hover:border-brand-300 active:scale-[0.99]"
            >
              <OfferImage offer={offer} large />
              <span className="min-w-0 flex-1">
                <OfferBadges badges={offer.badges} />
                <span className="mt-0.5 block line-clamp-2 text-sm font-semibold text-ink">{offer.title}</span>
                <span className="mt-0.5 block text-sm">
                  Up to <strong className="font-semibold text-money-600">{formatCoins(offer.coins)}</strong> (
                  {formatDollars(coinsToDollars(offer.coins, coinsPerDollar))})
                </span>
                <OfferFacts offer={offer} withWall />
              </span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A card per offer wall: what it is best for and its typical payout; each opens the network's page. */
export function OfferWalls({ walls, coinsPerDollar }: { walls: WallCardView[]; coinsPerDollar: number }) {
  return (
    <section aria-labelledby="offer-walls" className="space-y-2.5">
      <h2 id="offer-walls" className="text-sm font-semibold text-muted">
        Offer walls
      </h2>
      <ul className="grid gap-2.5 sm:grid-cols-2">
        {walls.map((wall) => (
          <li key={wall.name}>
            <Link
              to={`/earn/walls/${wall.name}`}
              className="flex min-h-16 items-center gap-3 rounded-2xl border border-line bg-white p-3.5 shadow-sm transition hover:border-brand-300 active:scale-[0.98]"
            >
              <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                <Icon name={wall.bestFor[0] ? KIND_ICONS[wall.bestFor[0]] : "compass"} className="size-5" />
              </span>
              <span className="min-w-0 flex-1">
                <span className="block truncate font-semibold">{wall.label}</span>
                <span className="block text-xs text-muted">
                  {wall.bestFor.length > 0 ? `Best for ${kindsPhrase(wall.bestFor)}` : "Offers of every kind"}
                </span>
                <span className="block text-xs text-muted">
                  {wall.typicalCoins !== null ? (
                    <>
                      Typical payout{" "}
                      <span className="font-semibold text-money-600">{formatCoins(wall.typicalCoins)}</span> (
                      {formatDollars(coinsToDollars(wall.typicalCoins, coinsPerDollar))})
                    </>
                  ) : (
                    "Payouts vary by offer"
                  )}
                </span>
              </span>
              <Icon name="forward" className="size-5 shrink-0 text-gray-400" />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

export interface WallOfferList {
  name: string;
  label: string;
  offers: OfferView[];
}

/** A wall's first offers, from its offers API. */
export function WallOffers({ list, coinsPerDollar }: { list: WallOfferList; coinsPerDollar: number }) {
  const headingId = `wall-offers-${list.name}`;
  return (
    <section aria-labelledby={headingId} className="space-y-2.5">
      <div>
        <h2 id={headingId} className="text-sm font-semibold text-muted">
          Offers from {list.label}
        </h2>
        <p className="text-xs text-muted">Coins arrive once {list.label} confirms the offer.</p>
      </div>
      <ul aria-label={`Offers from ${list.label}`} className="space-y-2.5">
        {list.offers.map((offer) => (
          <li key={offer.id}>
            <a
              href={offerHref(offer)}
              className="flex items-center gap-3 rounded-2xl border border-line bg-white p-3 shadow-sm transition hover:border-brand-200 active:scale-[0.99]"
            >
              <OfferImage offer={offer} />
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-semibold text-ink">{offer.title}</span>
                {offer.description ? (
                  <span className="block truncate text-xs text-muted">{offer.description}</span>
                ) : null}
                <span className="mt-0.5 block text-xs text-muted">
                  <span className="font-semibold text-money-600">+{formatCoins(offer.coins)}</span>
                  <span aria-hidden="true"> · </span>
                  {formatDollars(coinsToDollars(offer.coins, coinsPerDollar))}
                </span>
                <OfferFacts offer={offer} />
              </span>
              <span className="flex shrink-0 flex-col items-end gap-1">
                <OfferBadges badges={offer.badges} />
                <Icon name="forward" className="size-5 text-muted" />
              </span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
