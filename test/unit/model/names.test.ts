import { describe, expect, it } from '@jest/globals';
import { kebab } from '../../../src/lib/model/names.js';

describe('names', () => {
  it('follows the official CLI transform', () => {
    const cases: Record<string, string> = {
      createAWSDatalake: 'create-aws-datalake',
      updateToAwsImdsV2: 'update-to-aws-imds-v2',
      enableClouderaSSOLogin: 'enable-cloudera-sso-login',
      vNetId: 'v-net-id',
      disableArm64: 'disable-arm64',
      s3GuardTableName: 's3-guard-table-name',
      resourceCRNs: 'resource-crns',
      listUsers: 'list-users',
      userId: 'user-id',
    };
    for (const [from, to] of Object.entries(cases)) expect(kebab(from)).toBe(to);
  });
});
