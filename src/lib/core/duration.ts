/**
 * Durations for people: `350 ms`, `4.2 s`, `1m 05s`, `2h 03m`. Short waits
 * keep their real size (a timeout after 12 ms does not read "0 s").
 */
export function duration(ms: number): string {
  const t = Math.max(0, ms);
  if (t < 1000) return `${Math.round(t)} ms`;
  if (t < 60_000) return `${(Math.floor(t / 100) / 10).toFixed(1)} s`;
  return clock(t);
}

/** Whole seconds, as a ticking clock shows them: `0s`, `42s`, `1m 05s`, `2h 03m`. */
export function clock(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  if (s < 60) return `${s}s`;
  const pad = (n: number): string => String(n).padStart(2, '0');
  if (s < 3600) return `${Math.floor(s / 60)}m ${pad(s % 60)}s`;
  return `${Math.floor(s / 3600)}h ${pad(Math.floor((s % 3600) / 60))}m`;
}
