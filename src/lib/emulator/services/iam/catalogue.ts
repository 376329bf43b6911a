/**
 * The built-in roles and resource roles. They belong to the platform, not to
 * an account, so their CRNs name the account `altus` and they are never
 * stored: every account sees the same catalogue.
 */
import { crn, isCrn } from '../../ids.js';

interface RoleDef {
  readonly name: string;
  /** Rights granted on every resource of the account. */
  readonly rights: readonly string[];
}

const ROLES: readonly RoleDef[] = [
  { name: 'PowerUser', rights: ['*'] },
  { name: 'IamUser', rights: ['iam/*'] },
  { name: 'IamViewer', rights: ['iam/describe*', 'iam/get*', 'iam/list*'] },
  { name: 'EnvironmentCreator', rights: ['environments/createEnvironment', 'environments/describeEnvironment', 'iam/listRoles'] },
  { name: 'EnvironmentPrivilegedUser', rights: ['environments/getKeytab', 'environments/accessEnvironment'] },
  { name: 'ClassicClustersCreator', rights: ['classicclusters/create', 'classicclusters/describe'] },
  { name: 'DFCatalogAdmin', rights: ['df/catalog/*'] },
  { name: 'DFCatalogViewer', rights: ['df/catalog/describe*', 'df/catalog/list*'] },
  { name: 'DataCatalogCspRuleManager', rights: ['datacatalog/rules/*'] },
  { name: 'DataCatalogCspRuleViewer', rights: ['datacatalog/rules/list*'] },
  { name: 'MLAdmin', rights: ['ml/*'] },
  { name: 'MLUser', rights: ['ml/describe*', 'ml/list*'] },
  { name: 'DWAdmin', rights: ['dw/*'] },
  { name: 'DWUser', rights: ['dw/describe*', 'dw/list*'] },
  { name: 'DEAdmin', rights: ['de/*'] },
  { name: 'DEUser', rights: ['de/describe*', 'de/list*'] },
  { name: 'OwnerAdmin', rights: ['*'] },
];

const RESOURCE_ROLES: readonly RoleDef[] = [
  { name: 'EnvironmentAdmin', rights: ['environments/*', 'datalake/*', 'datahub/*'] },
  { name: 'EnvironmentUser', rights: ['environments/accessEnvironment', 'environments/describeEnvironment', 'environments/getKeytab'] },
  { name: 'DataSteward', rights: ['environments/describeEnvironment', 'datalake/describeDatalake', 'environments/assignUserRoles'] },
  { name: 'DataHubAdmin', rights: ['datahub/*'] },
  { name: 'DFCatalogViewer', rights: ['df/catalog/describe*', 'df/catalog/list*'] },
  { name: 'DFFlowAdmin', rights: ['df/deployments/*', 'df/flows/*'] },
  { name: 'DFFlowUser', rights: ['df/deployments/describe*', 'df/deployments/list*'] },
  { name: 'DEUser', rights: ['de/describe*', 'de/list*', 'de/submitJob'] },
  { name: 'DWUser', rights: ['dw/describe*', 'dw/list*'] },
  { name: 'MLUser', rights: ['ml/describe*', 'ml/list*', 'ml/runJob'] },
  { name: 'ODUser', rights: ['opdb/describe*', 'opdb/list*'] },
  { name: 'Owner', rights: ['*'] },
];

/** The catalogue of a region: its roles as listRoles shows them, its resource roles as listResourceRoles does, and lookups by name or CRN. */
export function catalogue(region: string) {
  const roleCrn = (name: string): string => crn('iam', region, 'altus', 'role', name, 'altus');
  const resourceRoleCrn = (name: string): string => crn('iam', region, 'altus', 'resourceRole', name, 'altus');
  const finder =
    (defs: readonly RoleDef[], toCrn: (n: string) => string) =>
    (ref: string): { name: string; crn: string } | undefined => {
      const def = isCrn(ref) ? defs.find((d) => toCrn(d.name) === ref) : defs.find((d) => d.name.toLowerCase() === ref.toLowerCase());
      return def ? { name: def.name, crn: toCrn(def.name) } : undefined;
    };
  return {
    roleCrn,
    findRole: finder(ROLES, roleCrn),
    findResourceRole: finder(RESOURCE_ROLES, resourceRoleCrn),
    roles: () =>
      ROLES.map((r) => ({
        crn: roleCrn(r.name),
        policies: [
          {
            crn: crn('iam', region, 'altus', 'policy', `${r.name}Policy`, 'altus'),
            policyStatements: [{ rights: [...r.rights], resources: ['*'] }],
          },
        ],
      })),
    resourceRoles: () => RESOURCE_ROLES.map((r) => ({ crn: resourceRoleCrn(r.name), rights: [...r.rights] })),
  };
}
