import { describe, expect, it } from "vitest";
import { signalFromAnswer } from "~/server/account/network-signals.server";

// ipinfo's answer as a network signal (docs/decisions/091): the privacy flags and the country; an
// answer without every privacy flag says nothing (never read as "not a VPN").
describe("a network signal from ipinfo's answer", () => {
  const privacy = { vpn: true, proxy: false, tor: false, relay: false, hosting: true, service: "NordVPN" };

  it("reads the five flags, the service and the country", () => {
    expect(signalFromAnswer({ ip: "203.0.113.10", country: "NL", privacy })).toEqual({
      country: "NL",
      vpn: true,
      proxy: false,
      tor: false,
      relay: false,
      hosting: true,
      service: "NordVPN",
    });
  });

  it("says nothing without privacy data or with a flag missing or not a boolean; a malformed country is no country", () => {
    expect(signalFromAnswer({ ip: "203.0.113.10", country: "NL" })).toBeNull();
    expect(signalFromAnswer({ country: "NL", privacy: { ...privacy, tor: undefined } })).toBeNull();
    expect(signalFromAnswer({ country: "NL", privacy: { ...privacy, vpn: "true" } })).toBeNull();
    for (const answer of [null, [], "NL", { bogon: true }]) expect(signalFromAnswer(answer)).toBeNull();
    expect(signalFromAnswer({ country: "Netherlands", privacy })?.country).toBeNull();
    expect(signalFromAnswer({ country: "NL", privacy: { ...privacy, service: "" } })?.service).toBeNull();
  });
});
