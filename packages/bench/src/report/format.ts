/** Number formatting and markdown tables for the report. Missing values print as "-". */

/** Integer with thousands separators: 27,563. */
export function fmtInt(v: number): string {
  return Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '-';
}

/** Three significant digits, no exponent: 0.0551, 1.46, 25.0, 125. */
export function fmtNum(v: number): string {
  if (!Number.isFinite(v)) return '-';
  const a = Math.abs(v);
  if (a === 0) return '0';
  if (a >= 100) return Math.round(v).toLocaleString('en-US');
  if (a >= 10) return v.toFixed(1);
  if (a >= 1) return v.toFixed(2);
  if (a >= 0.1) return v.toFixed(3);
  return v.toPrecision(3);
}

/** A fraction as a percentage: 0.38 → "38%". */
export function fmtPct(v: number): string {
  return Number.isFinite(v) ? `${Math.round(v * 100)}%` : '-';
}

/** A ratio with its range over repetitions: "0.52 [0.48-0.60]" (just "0.52" for one rep). */
export function fmtRatio(r: { median: number; min: number; max: number; n: number } | undefined): string {
  if (!r || !Number.isFinite(r.median)) return '-';
  const f = (x: number) => (Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(3));
  return r.n > 1 ? `${f(r.median)} [${f(r.min)}-${f(r.max)}]` : f(r.median);
}

/** A markdown table; `align` per column ('l' or 'r'). Pipes in cells are escaped. */
export function mdTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>, align?: readonly ('l' | 'r')[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const sep = header.map((_, i) => ((align?.[i] ?? (i === 0 ? 'l' : 'r')) === 'r' ? '---:' : '---'));
  return [`| ${header.map(esc).join(' | ')} |`, `| ${sep.join(' | ')} |`, ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`)].join('\n');
}
