/**
 * For tests that drive a Data Hub cluster through the library: an emulator
 * in this process on a paused clock, holding one AWS cluster made and left
 * to run (fifteen emulated minutes, past its create).
 */
import { startEmulator, type RunningEmulator } from '../../src/lib/sdk/emulator.js';

export async function emulatorWithRunningHub(clusterName: string): Promise<RunningEmulator> {
  const emu = await startEmulator({ paused: true });
  await emu.client.datahub.createAWSCluster({
    clusterName,
    environmentName: 'sales-env',
    clusterDefinitionName: '7.2.18 - Data Engineering for AWS',
  });
  emu.clock.advance('15m');
  return emu;
}
