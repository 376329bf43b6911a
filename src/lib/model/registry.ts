/**
 * The one registry of services: each service's CLI topic, which is also its
 * folder in every tree (src/lib/model/services/<topic>/ for its model,
 * src/lib/emulator/services/<topic>/ for its emulation), and its official
 * (wire) name, which the official CLI uses as its topic and cdpctl accepts
 * for the hidden aliases (`cdpctl cloudprivatelinks ...`). The model, the
 * CLI, the emulator, the docs and the model generator all read this list;
 * a new service is one line here and a folder in each tree. Kept free of
 * imports: the generator (scripts/gen-model.mjs) reads it from the build.
 */
export interface ServiceEntry {
  /** CLI topic and folder name: `privatelink`. */
  readonly topic: string;
  /** Official service name, as on the wire: `cloudprivatelinks`. */
  readonly wire: string;
}

export const SERVICES: readonly ServiceEntry[] = [
  { topic: 'iam', wire: 'iam' },
  { topic: 'datalake', wire: 'datalake' },
  { topic: 'compute', wire: 'compute' },
  { topic: 'privatelink', wire: 'cloudprivatelinks' },
  { topic: 'datacatalog', wire: 'datacatalog' },
  { topic: 'lakehouse', wire: 'lakehouseopt' },
  { topic: 'dataflow', wire: 'dfworkload' },
  { topic: 'environments', wire: 'environments' },
  { topic: 'ml', wire: 'ml' },
  { topic: 'de', wire: 'de' },
  { topic: 'opdb', wire: 'opdb' },
  { topic: 'dw', wire: 'dw' },
  { topic: 'replicationmanager', wire: 'replicationmanager' },
  { topic: 'audit', wire: 'audit' },
  { topic: 'consumption', wire: 'consumption' },
  { topic: 'drscp', wire: 'drscp' },
  { topic: 'datahub', wire: 'datahub' },
  { topic: 'imagecatalog', wire: 'imagecatalog' },
  { topic: 'df', wire: 'df' },
];
