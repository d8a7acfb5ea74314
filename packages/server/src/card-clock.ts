/**
 * When the agent card last changed in this process: the card's `Last-Modified`.
 *
 * Why not "now" on every request: `If-Modified-Since` revalidation only works when the date
 * stays put while the content does. Why the configured card (`getAgentCard()`) and not the
 * served JSON: the served JSON also varies with the request (interface URLs follow the Host
 * header), which is a different representation, not a change over time. A card that changes
 * back and forth gets a new date on every change, so no client is ever told an outdated copy
 * is current. The time is whole seconds, the resolution of HTTP dates.
 */
export class CardClock {
  private last: { readonly json: string; readonly at: Date } | undefined;

  /** @param now the clock, replaceable in tests */
  constructor(private readonly now: () => number = Date.now) {}

  /** The time `cardJson` (the configured card, serialised) was first seen since it last differed. */
  lastModified(cardJson: string): Date {
    if (this.last?.json !== cardJson) this.last = { json: cardJson, at: new Date(Math.floor(this.now() / 1000) * 1000) };
    return this.last.at;
  }
}
