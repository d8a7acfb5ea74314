const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * True when `s` is an RFC 3339 date-time acceptable as a google.protobuf.Timestamp (the rule
 * validateProtoJson applies). Exported for inputs that arrive outside a JSON body, e.g. the
 * HTTP+JSON `statusTimestampAfter` query parameter of ListTasks.
 */
export function isRfc3339Timestamp(s: string): boolean {
  const m = RFC3339.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (year < 1 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const monthDays = DAYS_IN_MONTH[month - 1];
  if (monthDays === undefined) return false;
  const maxDay = month === 2 && leap ? 29 : monthDays;
  if (day < 1 || day > maxDay) return false;
  if (m[8] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  return true;
}
