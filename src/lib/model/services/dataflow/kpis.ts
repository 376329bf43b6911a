/**
 * KPI alert units as the official CLI completes them before sending: a unit
 * given by its id gets `label` (the id capitalised) and `abbreviation` (its
 * first letter, lower case).
 */
export function labelKpiUnits(r: Record<string, unknown>): void {
  if (!Array.isArray(r.kpis)) return;
  for (const kpi of r.kpis as unknown[]) {
    const alert = (kpi as { alert?: { frequencyTolerance?: { unit?: Record<string, unknown> } } } | null)?.alert;
    const unit = alert?.frequencyTolerance?.unit;
    if (!unit || typeof unit.id !== 'string') continue;
    unit.label = unit.id.charAt(0).toUpperCase() + unit.id.slice(1).toLowerCase();
    unit.abbreviation = unit.id.charAt(0).toLowerCase();
  }
}
