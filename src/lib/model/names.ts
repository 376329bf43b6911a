/**
 * Name transforms shared by commands, flags and aliases. They follow the
 * official CLI's rules exactly so that flag and alias names match:
 * `createAWSDatalake` -> `create-aws-datalake`, `vNetId` -> `v-net-id`,
 * `resourceCRNs` -> `resource-crns`.
 */
const SPECIAL: Readonly<Record<string, string>> = {
  disableArm64: 'disable-arm64',
  s3GuardTableName: 's3-guard-table-name',
};

export function kebab(name: string): string {
  const special = SPECIAL[name];
  if (special) return special;
  let head = name;
  let tail = '';
  // A trailing run of three or more capitals plus `s` (CRNs) is one word.
  const plural = /[A-Z]{3,}s$/.exec(name);
  if (plural) {
    head = name.slice(0, plural.index);
    tail = plural[0].toLowerCase();
  }
  const out = head
    .replace(/(.)([A-Z][a-z]+)/g, '$1-$2')
    .replace(/([a-z])([0-9]+)/g, '$1-$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase();
  if (!tail) return out;
  return out ? `${out}-${tail}` : tail;
}

/** `create-user` -> `createUser` (for looking up flags by wire name). */
export function camel(kebabName: string): string {
  return kebabName.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
