/** Ids as the page shows them where room is short. Pure: unit-tested in Node. */

/** Characters of an id the list shows (a UUID's first group: enough to tell tasks apart at a glance). */
const SHORT_ID_LENGTH = 8;

/** `0b5c1f3e…`: the start of a long id; short ones as they are. */
export function shortId(id: string): string {
  return id.length > SHORT_ID_LENGTH + 1 ? `${id.slice(0, SHORT_ID_LENGTH)}…` : id;
}
