/**
 * For tests that drive an emulator through the library and need a data
 * lake (Data Engineering, Replication Manager, the datalake service
 * itself): the cloud storage settings an AWS lake is made with, and a lake
 * made and left to run.
 */
import type { RunningEmulator } from '../../src/lib/sdk/emulator.js';
import type { datalake } from '../../src/lib/sdk/index.js';

export const AWS_LAKE_STORAGE = {
  cloudProviderConfiguration: {
    instanceProfile: 'arn:aws:iam::123456789012:instance-profile/idbroker',
    storageBucketLocation: 's3a://lake-bucket/data',
  },
};

/** Makes an AWS data lake and moves the clock past its create (ten emulated minutes); answers its status then. */
export async function runningAwsLake(
  emu: RunningEmulator,
  datalakeName: string,
  environmentName: string,
  more: Partial<datalake.CreateAWSDatalakeRequest> = {},
): Promise<string | undefined> {
  await emu.client.datalake.createAWSDatalake({ datalakeName, environmentName, ...AWS_LAKE_STORAGE, ...more });
  emu.clock.advance('10m');
  return (await emu.client.datalake.describeDatalake({ datalakeName })).datalake.status;
}
