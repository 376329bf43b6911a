/**
 * Data Hub beyond the cluster lifecycle, through bin/run.js against the
 * emulator, as a user scripts it: cluster templates and definitions (the
 * built-in ones a create accepts, and the account's own, from files),
 * recipes attached to instance groups, custom configurations, autoscale
 * rules with their nested policies, runtime upgrades on the paths the
 * runtimes allow (held back by the data lake's runtime), vertical scaling,
 * instances stopped and started, maintenance with --wait (certificates,
 * secrets, the database, the KRaft migration), diagnostics collections
 * (collected, listed, cancelled), and what happened to a cluster; the
 * failure paths (`fail-<action>-` names end in exit 5, a retry then
 * succeeds) and bad input (what does not exist is NOT_FOUND, an unlisted
 * definition is refused, and nothing is written).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type RunResult, type TestEmulator, FAST_WAIT as WAIT } from '../helpers/cli.js';

let em: TestEmulator;

const DE_AWS = '7.2.18 - Data Engineering for AWS';
const DE_TEMPLATE = '7.2.18 - Data Engineering: Apache Spark3, Apache Hive, Apache Oozie';

type Cluster = {
  clusterName: string;
  crn: string;
  status: string;
  nodeCount: number;
  clusterTemplateCrn: string;
  imageDetails: { id: string };
  clouderaManager: { platformVersion: string };
  instanceGroups: Array<{
    name: string;
    recipes: string[];
    instances: Array<{ id: string; status: string; instanceVmType: string; attachedVolumes?: Array<{ size: number; count: number }> }>;
  }>;
};
type Operation = { operationId: string; operationName: string; operationStatus: string };

/** `cdpctl datahub <line>`: the line's words split on spaces, then the words given apart (values with spaces). */
const dh = (line: string, ...more: string[]): Promise<RunResult> => em.cli(['datahub', ...line.split(' '), ...more]);
/** The same, answering JSON (the test fails with stderr when the exit code is not 0). */
const dhJson = <T>(line: string, ...more: string[]): Promise<T> => em.json<T>(['datahub', ...line.split(' '), ...more]);

/** `clusters create aws` in sales-env from a definition (or none), extra flags after. */
const createHub = (name: string, definition: string | undefined, extra: string[] = []) =>
  dh(
    `clusters create aws --cluster-name ${name} --environment sales-env`,
    ...(definition ? ['--cluster-definition', definition] : []),
    ...extra,
  );

const describeHub = async (name: string): Promise<Cluster> =>
  (await dhJson<{ cluster: Cluster }>(`clusters describe --cluster-name ${name}`)).cluster;

const hubNames = async (): Promise<string[]> =>
  (await dhJson<{ clusters: Array<{ clusterName: string }> }>('clusters list')).clusters.map((c) => c.clusterName);

/** Expects a refusal: exit 1 and the message. */
async function refused(r: Promise<RunResult>, message: RegExp): Promise<void> {
  const out = await r;
  expect([out.code, out.stderr]).toEqual([1, expect.stringMatching(message)]);
}

/** A command with --wait whose operation ended FINISHED (the output of getOperation). */
async function finished(line: string, ...more: string[]): Promise<Operation> {
  const r = await dh(line, ...more, ...WAIT, '--output', 'json');
  expect([line, r.code, r.stderr]).toEqual([line, 0, expect.any(String)]);
  const op = JSON.parse(r.stdout) as Operation;
  expect(op.operationStatus).toBe('FINISHED');
  return op;
}

/** A file in the emulator's temp HOME, for file:// arguments. */
const file = (name: string, content: string): string => {
  const path = join(em.home, name);
  writeFileSync(path, content);
  return `file://${path}`;
};

const group = (c: Cluster, name: string) => c.instanceGroups.find((g) => g.name === name);

beforeAll(async () => {
  em = await startEmulator();
  const r = await createHub('team-hub', DE_AWS, WAIT);
  if (r.code !== 0) throw new Error(`cluster create failed: ${r.stderr}`);
});

afterAll(async () => {
  await em?.stop();
});

describe('cluster templates', () => {
  const content = JSON.stringify({
    cdhVersion: '7.2.18',
    displayName: 'sales-spark',
    services: [
      { refName: 'spark', serviceType: 'SPARK3_ON_YARN' },
      { refName: 'hdfs', serviceType: 'HDFS' },
    ],
    hostTemplates: [
      { refName: 'master', cardinality: 1 },
      { refName: 'worker', cardinality: 2 },
    ],
  });
  const templateNames = async (): Promise<string[]> =>
    (await dhJson<{ clusterTemplates: Array<{ clusterTemplateName: string }> }>('cluster-templates list')).clusterTemplates.map(
      (t) => t.clusterTemplateName,
    );

  test('the built-in templates are listed with their runtime; one describes with its Cloudera Manager template', async () => {
    const list = await dhJson<{ clusterTemplates: Array<Record<string, unknown>> }>('cluster-templates list');
    expect(list.clusterTemplates).toContainEqual(
      expect.objectContaining({ clusterTemplateName: DE_TEMPLATE, status: 'DEFAULT', productVersion: '7.2.18', instanceGroupCount: 3 }),
    );
    const one = await dhJson<{ clusterTemplate: { clusterTemplateContent: string; crn: string } }>(
      'cluster-templates describe --cluster-template-name',
      DE_TEMPLATE,
    );
    expect(JSON.parse(one.clusterTemplate.clusterTemplateContent)).toMatchObject({ cdhVersion: '7.2.18' });
    // The cluster made from the definition names this template.
    expect((await describeHub('team-hub')).clusterTemplateCrn).toBe(one.clusterTemplate.crn);
  });

  test('create from a file: the account own, with its host groups; the name is then taken', async () => {
    const made = await dhJson<{ clusterTemplate: Record<string, unknown> }>(
      'cluster-templates create --cluster-template-name sales-spark --cluster-template-content',
      file('sales-spark.json', content),
    );
    expect(made.clusterTemplate).toMatchObject({ clusterTemplateName: 'sales-spark', status: 'USER_MANAGED', instanceGroupCount: 2 });
    expect(String(made.clusterTemplate.crn)).toMatch(/^crn:cdp:datahub:[^:]+:[^:]+:clustertemplate:/);
    await refused(
      dh('cluster-templates create --cluster-template-name sales-spark --cluster-template-content', content),
      /ALREADY_EXISTS: cluster template sales-spark already exists/,
    );
  });

  test('bad content and a template that does not exist: refused, nothing written', async () => {
    await refused(
      dh('cluster-templates create --cluster-template-name broken-tpl --cluster-template-content', 'spark please'),
      /INVALID_ARGUMENT: the cluster template content is not JSON/,
    );
    await refused(
      dh('cluster-templates create --cluster-template-name ancient-tpl --cluster-template-content', '{"cdhVersion":"7.1.7"}'),
      /INVALID_ARGUMENT: runtime 7.1.7 of the cluster template is not available/,
    );
    expect(await templateNames()).not.toEqual(expect.arrayContaining(['broken-tpl']));
    expect(await templateNames()).not.toEqual(expect.arrayContaining(['ancient-tpl']));
    await refused(
      dh('cluster-templates describe --cluster-template-name no-such-template'),
      /NOT_FOUND: cluster template no-such-template not found/,
    );
    await refused(
      createHub('lost-hub', undefined, ['--cluster-template', 'no-such-template']),
      /NOT_FOUND: cluster template no-such-template/,
    );
    expect(await hubNames()).not.toContain('lost-hub');
  });

  test('a built-in template cannot be deleted; a delete of several is all or nothing', async () => {
    await refused(
      dh('cluster-templates delete --yes --cluster-template-names', DE_TEMPLATE),
      /FAILED_PRECONDITION: cluster template .* is built in/,
    );
    await refused(
      dh('cluster-templates delete --yes --cluster-template-names sales-spark no-such-template'),
      /NOT_FOUND: cluster template no-such-template not found/,
    );
    expect(await templateNames()).toContain('sales-spark');
  });
});

describe('cluster definitions', () => {
  type Definitions = { clusterDefinitions: Array<Record<string, unknown>> };

  test('what create accepts is what the list shows: a listed definition builds its workload on its runtime', async () => {
    const list = await dhJson<Definitions>('cluster-definitions list');
    expect(list.clusterDefinitions).toContainEqual(
      expect.objectContaining({
        clusterDefinitionName: DE_AWS,
        cloudPlatform: 'AWS',
        productVersion: '7.2.18',
        nodeCount: 5,
        type: 'DATAENGINEERING',
      }),
    );
    const mart = list.clusterDefinitions.find((d) => d.clusterDefinitionName === '7.2.17 - Data Mart for AWS');
    expect((await createHub('mart-hub', String(mart?.clusterDefinitionName), WAIT)).code).toBe(0);
    const c = await describeHub('mart-hub');
    expect([c.status, c.clouderaManager.platformVersion, c.nodeCount]).toEqual(['AVAILABLE', '7.2.17', mart?.nodeCount]);
    expect(c.instanceGroups.map((g) => g.name)).toEqual(['master', 'coordinator', 'executor']);
    const d = await dhJson<{ clusterDefinition: { workloadTemplate: string } }>(
      'cluster-definitions describe --cluster-definition-name',
      DE_AWS,
    );
    expect(JSON.parse(d.clusterDefinition.workloadTemplate)).toMatchObject({ clusterTemplateName: DE_TEMPLATE });
  });

  test('a definition that is not listed, or of another cloud or runtime, is refused and nothing is made', async () => {
    await refused(
      createHub('odd-hub', '7.2.18 - Data Engineering for Mars'),
      /NOT_FOUND: cluster definition 7.2.18 - Data Engineering for Mars not found/,
    );
    await refused(
      createHub('odd-hub', '7.2.18 - Data Engineering for Azure'),
      /INVALID_ARGUMENT: cluster definition 7.2.18 - Data Engineering for Azure is for AZURE, not for AWS/,
    );
    await refused(
      createHub('odd-hub', DE_AWS, ['--cluster-template', '7.2.17 - Data Mart: Apache Impala, Hue']),
      /INVALID_ARGUMENT: cluster template 7.2.17 - Data Mart: Apache Impala, Hue is for runtime 7.2.17/,
    );
    expect(await hubNames()).not.toContain('odd-hub');
  });

  test("the account's own definition: for one environment, from the template it names, which stays while it is used", async () => {
    const workload = JSON.stringify({
      environmentName: 'sales-env',
      clusterTemplateName: 'sales-spark',
      instanceGroups: [{ instanceGroupName: 'worker', instanceGroupType: 'CORE', nodeCount: 4, instanceType: 'r5.2xlarge' }],
    });
    const made = await dhJson<{ clusterDefinition: Record<string, unknown> }>(
      'cluster-definitions create --cluster-definition-name sales-spark-aws --workload-template',
      file('sales-spark-aws.json', workload),
    );
    const envs = await em.json<{ environments: Array<{ environmentName: string; crn: string }> }>(['environments', 'list']);
    const sales = envs.environments.find((e) => e.environmentName === 'sales-env')?.crn;
    expect(made.clusterDefinition).toMatchObject({ clusterDefinitionName: 'sales-spark-aws', cloudPlatform: 'AWS', environmentCrn: sales });
    const summary = (await dhJson<Definitions>('cluster-definitions list')).clusterDefinitions.find(
      (d) => d.clusterDefinitionName === 'sales-spark-aws',
    );
    expect(summary).toMatchObject({ type: 'USER_MANAGED', nodeCount: 5, productVersion: '7.2.18' });
    await refused(
      dh('cluster-definitions create --cluster-definition-name lost-definition --workload-template', '{"environmentName":"no-such-env"}'),
      /NOT_FOUND: environment no-such-env not found/,
    );
    await refused(
      dh('cluster-templates delete --yes --cluster-template-names sales-spark'),
      /FAILED_PRECONDITION: cluster template sales-spark is used by cluster definition sales-spark-aws/,
    );
  });

  test('a cluster from it gets its groups; in another environment it is refused', async () => {
    await refused(
      dh('clusters create aws --cluster-name spark-stage --environment staging-aws --cluster-definition sales-spark-aws'),
      /INVALID_ARGUMENT: cluster definition sales-spark-aws is for environment sales-env, not staging-aws/,
    );
    expect((await createHub('spark-hub', 'sales-spark-aws', WAIT)).code).toBe(0);
    const c = await describeHub('spark-hub');
    expect(c.instanceGroups.map((g) => [g.name, g.instances.length, g.instances[0]?.instanceVmType])).toEqual([
      ['master', 1, 'm5.4xlarge'],
      ['worker', 4, 'r5.2xlarge'],
    ]);
    expect((await dh('cluster-definitions delete --yes --cluster-definition-names sales-spark-aws')).code).toBe(0);
    await refused(
      dh('cluster-templates delete --yes --cluster-template-names sales-spark'),
      /FAILED_PRECONDITION: cluster template sales-spark is used by cluster spark-hub/,
    );
    expect((await dh('clusters delete --cluster-name spark-hub --yes', ...WAIT)).code).toBe(0);
    expect((await dh('cluster-templates delete --yes --cluster-template-names sales-spark')).code).toBe(0);
  });
});

describe('recipes and custom configurations', () => {
  test('create, list, describe; a type that does not exist is refused', async () => {
    const made = await dhJson<{ recipe: Record<string, unknown> }>(
      'recipes create --recipe-name install-agent --type POST_CLOUDERA_MANAGER_START --recipe-content',
      file('install-agent.sh', '#!/bin/bash\nyum install -y agent\n'),
    );
    expect(made.recipe).toMatchObject({ recipeName: 'install-agent', type: 'POST_CLOUDERA_MANAGER_START' });
    expect(String(made.recipe.creatorCrn)).toMatch(/^crn:[a-z]+:iam:[^:]+:[^:]+:user:/);
    const one = await dhJson<{ recipe: { recipeContent: string } }>('recipes describe --recipe-name install-agent');
    expect(one.recipe.recipeContent).toContain('yum install -y agent');
    const list = await dhJson<{ recipes: Array<{ recipeName: string }> }>('recipes list');
    expect(list.recipes.map((r) => r.recipeName)).toEqual(['install-agent']);
    await refused(
      dh('recipes create --recipe-name tune-kernel --type WHENEVER --recipe-content', 'sysctl -p'),
      /INVALID_ARGUMENT: recipe type WHENEVER is not one of/,
    );
    await refused(dh('recipes describe --recipe-name tune-kernel'), /NOT_FOUND: recipe tune-kernel not found/);
  });

  test('a cluster with a recipe that does not exist is refused; replace attaches and detaches; one in use is kept', async () => {
    const groups = JSON.stringify([
      {
        instanceGroupName: 'compute',
        instanceGroupType: 'CORE',
        instanceType: 'm5.2xlarge',
        nodeCount: 2,
        attachedVolumeConfiguration: [],
        recipeNames: ['no-such-recipe'],
      },
    ]);
    await refused(createHub('recipe-hub', DE_AWS, ['--instance-groups', groups]), /NOT_FOUND: recipe no-such-recipe not found/);
    expect(await hubNames()).not.toContain('recipe-hub');
    const replace = (recipes: string[]) =>
      dhJson<{ attachedRecipes?: unknown[]; detachedRecipes?: unknown[] }>(
        'recipes replace --datahub team-hub --instance-group-recipes',
        JSON.stringify([{ instanceGroupName: 'compute', recipeNames: recipes }]),
      );
    expect((await replace(['install-agent'])).attachedRecipes).toEqual([{ instanceGroupName: 'compute', recipeNames: ['install-agent'] }]);
    expect(group(await describeHub('team-hub'), 'compute')?.recipes).toEqual(['install-agent']);
    await refused(
      dh('recipes delete --yes --recipe-names install-agent'),
      /FAILED_PRECONDITION: recipe install-agent is used by cluster team-hub/,
    );
    expect((await replace([])).detachedRecipes).toEqual([{ instanceGroupName: 'compute', recipeNames: ['install-agent'] }]);
    expect((await dh('recipes delete --yes --recipe-names install-agent')).code).toBe(0);
    await refused(dh('recipes describe --recipe-name install-agent'), /NOT_FOUND/);
  });

  test('custom configurations: of a runtime; a cluster of another runtime cannot use them', async () => {
    const made = await dhJson<{ customConfigurations: Record<string, unknown> }>(
      'custom-configurations create --custom-configurations-name spark-tuning --runtime-version 7.2.18 --configurations',
      '[{"configName":"spark_executor_memory","configValue":"8g","serviceType":"SPARK3_ON_YARN","roleType":"GATEWAY"}]',
    );
    expect(made.customConfigurations).toMatchObject({ name: 'spark-tuning', runtimeVersion: '7.2.18' });
    await refused(
      createHub('tuned-hub', '7.2.17 - Data Engineering for AWS', ['--custom-configurations-name', 'spark-tuning']),
      /INVALID_ARGUMENT: custom configurations spark-tuning are for runtime 7.2.18; the cluster runs 7.2.17/,
    );
    const listed = await dhJson<{ customConfigurations: Array<{ name: string }> }>('custom-configurations list');
    expect(listed.customConfigurations.map((c) => c.name)).toEqual(['spark-tuning']);
    expect((await dh('custom-configurations delete --yes --custom-configurations spark-tuning')).code).toBe(0);
  });
});

describe('autoscale rules', () => {
  const load = (min: number, max: number, groups = 'compute') =>
    JSON.stringify([
      { hostGroups: groups, loadBasedPolicy: { configuration: { minResourceValue: min, maxResourceValue: max, coolDownMinutes: 10 } } },
    ]);
  const schedule = (cronExpression: string, value: unknown, identifier?: string) =>
    JSON.stringify([
      {
        hostGroups: 'compute',
        scheduleBasedPolicy: {
          schedules: [
            {
              ...(identifier ? { identifier } : {}),
              configuration: {
                trigger: { cronExpression, timeZone: 'America/Los_Angeles' },
                action: { resourceAdjustmentType: 'ABSOLUTE_COUNT', resourceAdjustmentValue: value },
              },
            },
          ],
        },
      },
    ]);
  type Rules = { autoScaleRules: { enabled: boolean; autoScalePolicies: Array<Record<string, unknown>> } };
  const create = (policies: string) => dh('autoscale-rules create --cluster-name team-hub --auto-scale-policies', policies);

  test('none yet: NOT_FOUND; bad policies are refused with what is wrong, nothing written', async () => {
    await refused(dh('autoscale-rules describe --cluster-name team-hub'), /NOT_FOUND: cluster team-hub has no autoscale rules/);
    const bad: Array<[string, RegExp]> = [
      [load(5, 2), /minResourceValue 5 is above maxResourceValue 2/],
      [load(1, 4, 'master'), /instance group master holds Cloudera Manager/],
      [load(1, 4, 'compute,gpu'), /cluster team-hub has no instance group gpu/],
      [JSON.stringify([{ hostGroups: 'compute' }]), /give a loadBasedPolicy or a scheduleBasedPolicy/],
      [schedule('every morning', 4), /cronExpression "every morning" is not a Quartz cron expression/],
    ];
    for (const [policies, message] of bad) await refused(create(policies), new RegExp(`INVALID_ARGUMENT: .*${message.source}`));
    // A wrong type deep inside the policy is the CLI's to catch, from the model's shapes: nothing is sent.
    const typed = await create(schedule('0 0 8 ? * MON-FRI', 'ten'));
    expect([typed.code, typed.stderr]).toEqual([
      2,
      expect.stringMatching(
        /INVALID_INPUT: --auto-scale-policies: \[0\]\.scheduleBasedPolicy\.schedules\[0\]\.configuration\.action\.resourceAdjustmentValue must be an integer/,
      ),
    ]);
    await refused(dh('autoscale-rules describe --cluster-name team-hub'), /NOT_FOUND/);
  });

  test('create, create again (ALREADY_EXISTS), turn off, replace with a schedule, history, delete', async () => {
    const made = (await create(load(2, 8)).then((r) => JSON.parse(r.stdout))) as Rules;
    expect(made.autoScaleRules.enabled).toBe(true);
    expect(made.autoScaleRules.autoScalePolicies).toEqual([
      {
        hostGroups: 'compute',
        loadBasedPolicy: {
          identifier: expect.any(String),
          configuration: { minResourceValue: 2, maxResourceValue: 8, coolDownMinutes: 10 },
        },
      },
    ]);
    await refused(create(load(1, 3)), /ALREADY_EXISTS: cluster team-hub already has autoscale rules/);
    expect((await dh('autoscale-rules update --cluster-name team-hub --no-enabled')).code).toBe(0);
    expect((await dhJson<Rules>('autoscale-rules describe --cluster-name team-hub')).autoScaleRules).toEqual({
      clusterName: 'team-hub',
      enabled: false,
      autoScalePolicies: made.autoScaleRules.autoScalePolicies,
    });
    const replaced = await dh(
      'autoscale-rules update --cluster-name team-hub --enabled --auto-scale-policies',
      schedule('0 0 8 ? * MON-FRI', 10, 'weekday-morning'),
    );
    expect(replaced.code).toBe(0);
    const now = (await dhJson<Rules>('autoscale-rules describe --cluster-name team-hub')).autoScaleRules;
    expect(now.enabled).toBe(true);
    expect(now.autoScalePolicies[0]).toMatchObject({
      scheduleBasedPolicy: {
        schedules: [{ identifier: 'weekday-morning', configuration: { trigger: { timeZone: 'America/Los_Angeles' } } }],
      },
    });
    const history = await dhJson<{ historyEvents: Array<{ eventMessage: string }> }>('autoscale-rules history --cluster-name team-hub');
    expect(history.historyEvents.map((e) => e.eventMessage)).toEqual([
      'Autoscaling enabled',
      'Autoscale rules replaced: compute (schedule based)',
      'Autoscaling disabled',
      'Autoscale rules created for compute (load based); autoscaling enabled',
    ]);
    expect((await dh('autoscale-rules delete --cluster-name team-hub --yes')).code).toBe(0);
    await refused(dh('autoscale-rules describe --cluster-name team-hub'), /NOT_FOUND/);
  });
});

describe('upgrades', () => {
  type Image = { imageId: string; componentVersions: { cdp: string } };
  type Upgrade = { current: Image; upgradeCandidates: Image[]; reason?: string };
  let before = '';

  test('on 7.2.17 both images of 7.2.18 are offered, 7.3.1 is not (7.2.17 upgrades to 7.2.18)', async () => {
    const images = await dhJson<Upgrade>('clusters upgrade --cluster-name mart-hub --show-available-images');
    expect(images.current.componentVersions.cdp).toBe('7.2.17');
    expect(images.upgradeCandidates.map((i) => i.componentVersions.cdp)).toEqual(['7.2.18', '7.2.18']);
    await refused(
      dh('clusters upgrade --cluster-name mart-hub --runtime 7.3.1'),
      /FAILED_PRECONDITION: cluster mart-hub runs runtime 7.2.17, which upgrades to 7.2.18; not to 7.3.1/,
    );
    before = images.current.imageId;
  });

  test('prepare --wait, then upgrade --runtime --wait: the cluster runs 7.2.18; it cannot go back', async () => {
    expect((await finished('clusters prepare-upgrade --cluster mart-hub --runtime 7.2.18')).operationName).toBe('UPGRADE_PREPARATION');
    const dry = await dhJson<Upgrade>('clusters upgrade --cluster-name mart-hub --runtime 7.2.18 --dry-run');
    expect(dry.upgradeCandidates).toHaveLength(1);
    expect((await describeHub('mart-hub')).imageDetails.id).toBe(before);
    expect((await finished('clusters upgrade --cluster-name mart-hub --runtime 7.2.18')).operationName).toBe('UPGRADE');
    const c = await describeHub('mart-hub');
    expect([c.status, c.clouderaManager.platformVersion, c.imageDetails.id]).toEqual([
      'AVAILABLE',
      '7.2.18',
      dry.upgradeCandidates[0]?.imageId,
    ]);
    await refused(
      dh('clusters upgrade --cluster-name mart-hub --runtime 7.2.17'),
      /FAILED_PRECONDITION: cluster mart-hub runs runtime 7.2.18; it cannot go back to 7.2.17/,
    );
  });

  test('a Data Hub runs no newer runtime than its data lake', async () => {
    const lake = await em.cli([
      'datalake',
      'create',
      'aws',
      '--datalake-name',
      'stage-lake',
      '--environment-name',
      'staging-aws',
      '--cloud-provider-configuration',
      'instanceProfile=arn:aws:iam::123456789012:instance-profile/dl-idbroker,storageBucketLocation=s3a://stage-data/lake',
      '--runtime',
      '7.2.18',
      ...WAIT,
    ]);
    expect(lake.code).toBe(0);
    const inStaging = (name: string, definition: string, ...more: string[]) =>
      dh(`clusters create aws --cluster-name ${name} --environment staging-aws --cluster-definition`, definition, ...more);
    await refused(
      inStaging('stage-hub', '7.3.1 - Data Engineering for AWS'),
      /FAILED_PRECONDITION: data lake stage-lake runs runtime 7.2.18; a cluster of runtime 7.3.1 needs the data lake/,
    );
    expect((await inStaging('stage-hub', DE_AWS, ...WAIT)).code).toBe(0);
    const offered = await dhJson<Upgrade>('clusters upgrade --cluster-name stage-hub --show-available-images');
    expect(offered.upgradeCandidates).toEqual([]);
    expect(offered.reason).toMatch(/runtime 7.3.1 needs data lake stage-lake upgraded first/);
  });

  test('a fail-upgrade- cluster: the upgrade ends in UPDATE_FAILED (exit 5); a retry --wait ends AVAILABLE on the new runtime', async () => {
    expect((await createHub('fail-upgrade-hub', '7.2.17 - Data Engineering for AWS', WAIT)).code).toBe(0);
    const up = await dh('clusters upgrade --cluster-name fail-upgrade-hub --runtime 7.2.18', ...WAIT);
    expect([up.code, up.stderr]).toEqual([5, expect.stringMatching(/upgradeCluster ended in FAILED/)]);
    const failed = await describeHub('fail-upgrade-hub');
    expect([failed.status, failed.clouderaManager.platformVersion]).toEqual(['UPDATE_FAILED', '7.2.17']);
    expect((await dh('clusters retry --cluster-name fail-upgrade-hub', ...WAIT)).code).toBe(0);
    const c = await describeHub('fail-upgrade-hub');
    expect([c.status, c.clouderaManager.platformVersion]).toEqual(['AVAILABLE', '7.2.18']);
    await refused(
      dh('clusters retry --cluster-name fail-upgrade-hub'),
      /FAILED_PRECONDITION: cluster fail-upgrade-hub is AVAILABLE; only a failed cluster operation can be retried/,
    );
  });
});

describe('instances, vertical scaling and maintenance', () => {
  const statuses = async (name: string, groupName: string) => group(await describeHub(name), groupName)?.instances.map((i) => i.status);

  test('stop two instances and start them again, with --wait; the Cloudera Manager host cannot be stopped', async () => {
    const before = await describeHub('mart-hub');
    const executors = group(before, 'executor')?.instances.map((i) => i.id) ?? [];
    const master = group(before, 'master')?.instances[0]?.id ?? '';
    await refused(dh(`instances stop --cluster mart-hub --instance-ids ${master}`), /INVALID_ARGUMENT: instance .* holds Cloudera Manager/);
    await finished('instances stop --cluster mart-hub --instance-ids', ...executors);
    expect(await statuses('mart-hub', 'executor')).toEqual(['STOPPED', 'STOPPED']);
    await refused(
      dh('instances start --cluster mart-hub --host-group executor --instance-count 3'),
      /FAILED_PRECONDITION: instance group executor has 2 stopped instance\(s\); cannot start 3/,
    );
    await finished('instances start --cluster mart-hub --host-group executor');
    expect(await statuses('mart-hub', 'executor')).toEqual(['SERVICES_HEALTHY', 'SERVICES_HEALTHY']);
  });

  test('vertical scaling: instance types on a stopped cluster only, disks also on a running one', async () => {
    const bigger = 'clusters scale-vertically --datahub mart-hub --group executor --instance-template instanceType=r5.4xlarge';
    await refused(dh(bigger), /FAILED_PRECONDITION: cluster mart-hub is AVAILABLE; changing the instance type needs it STOPPED/);
    await finished(
      'clusters scale-vertically --datahub mart-hub --group executor --disk-options',
      '{"modifyDisks":{"size":1000,"diskType":"ADDITIONAL_DISK"}}',
    );
    expect(group(await describeHub('mart-hub'), 'executor')?.instances[0]?.attachedVolumes).toEqual([
      { count: 1, volumeType: 'gp3', size: 1000 },
    ]);
    expect((await dh('clusters stop --cluster-name mart-hub', ...WAIT)).code).toBe(0);
    await finished(bigger);
    const c = await describeHub('mart-hub');
    expect(c.status).toBe('STOPPED');
    expect(group(c, 'executor')?.instances.map((i) => i.instanceVmType)).toEqual(['r5.4xlarge', 'r5.4xlarge']);
    expect((await dh('clusters start --cluster-name mart-hub', ...WAIT)).code).toBe(0);
  });

  test('certificates, secrets and the database with --wait; what the cluster lacks is refused', async () => {
    await finished('certificates renew --datahub team-hub');
    await finished('certificates rotate --datahub team-hub');
    await finished('secrets rotate --datahub team-hub --secret-types CM_ADMIN_PASSWORD SALT_PASSWORD');
    await finished('dns update --datahub team-hub');
    await finished('clusters upgrade-database --cluster team-hub --target-version VERSION_17');
    await refused(
      dh('secrets rotate --datahub team-hub --secret-types ROOT_SSH_KEY'),
      /INVALID_ARGUMENT: secret type ROOT_SSH_KEY cannot be rotated on cluster team-hub/,
    );
    await refused(
      dh('clusters upgrade-database --cluster team-hub --target-version VERSION_14'),
      /FAILED_PRECONDITION: the database of cluster team-hub is at VERSION_17; it cannot go back to VERSION_14/,
    );
    await refused(
      dh('clusters migrate-skus --cluster-name team-hub'),
      /FAILED_PRECONDITION: cluster team-hub runs on AWS; SKU migration is for Azure/,
    );
    await refused(dh('kraft-migration start --crn team-hub'), /FAILED_PRECONDITION: cluster team-hub runs no Kafka/);
  });

  test('ZooKeeper to KRaft on a 7.3.1 Streams Messaging cluster: migrate, then finalize; nothing left to roll back', async () => {
    expect((await createHub('kafka-hub', '7.3.1 - Streams Messaging Light Duty for AWS', WAIT)).code).toBe(0);
    await refused(
      dh('kraft-migration finalize --crn kafka-hub --yes'),
      /FAILED_PRECONDITION: cluster kafka-hub has no KRaft migration to finalize/,
    );
    await finished('kraft-migration start --crn kafka-hub');
    await finished('kraft-migration finalize --crn kafka-hub --yes');
    await refused(
      dh('kraft-migration rollback --crn kafka-hub'),
      /FAILED_PRECONDITION: cluster kafka-hub has no KRaft migration to roll back \(its brokers are on KRaft for good\)/,
    );
  });

  test('a fail-rotate- cluster: the rotation ends FAILED (exit 5), the cluster stays AVAILABLE; the second one succeeds', async () => {
    expect((await createHub('fail-rotate-hub', DE_AWS, WAIT)).code).toBe(0);
    const first = await dh('certificates rotate --datahub fail-rotate-hub', ...WAIT);
    expect([first.code, first.stderr]).toEqual([5, expect.stringMatching(/rotatePrivateCertificates ended in FAILED/)]);
    expect((await describeHub('fail-rotate-hub')).status).toBe('AVAILABLE');
    await finished('certificates rotate --datahub fail-rotate-hub');
  });
});

describe('diagnostics', () => {
  let crn = '';
  beforeAll(async () => {
    crn = (await describeHub('team-hub')).crn;
  });
  const clock = (flag: string) => em.raw(['emulator', 'clock', flag, '--data-dir', em.dataDir]);

  test('log descriptors and Cloudera Manager roles narrow a collection; unknown ones are refused', async () => {
    const logs = await dhJson<{ logs: Array<{ label: string }> }>('diagnostics log-descriptors');
    expect(logs.logs.map((l) => l.label)).toContain('cm-server');
    expect((await dhJson<{ roles: string[] }>(`diagnostics cm-roles --crn ${crn}`)).roles).toContain('HIVESERVER2');
    await refused(
      dh(`diagnostics collect-cm --crn ${crn} --destination SUPPORT --roles KAFKA_BROKER`),
      /INVALID_ARGUMENT: cluster team-hub has no Cloudera Manager role KAFKA_BROKER/,
    );
  });

  test('collect --wait into cloud storage: FINISHED at 100% in the environment log location', async () => {
    const op = await finished(
      `diagnostics collect --crn ${crn} --destination CLOUD_STORAGE --labels hive cm-server --description`,
      'slow Hive queries',
    );
    expect(op.operationName).toBe('DIAGNOSTICS_COLLECTION');
    const list = await dhJson<{ collections: Array<Record<string, unknown>> }>(`diagnostics list --crn ${crn}`);
    expect(list.collections[0]).toMatchObject({
      flowId: op.operationId,
      status: 'FINISHED',
      progressPercentage: 100,
      collectionDetails: {
        destination: 'CLOUD_STORAGE',
        description: 'slow Hive queries',
        output: expect.stringMatching(/^s3a:\/\/sales-env-logs\/diagnostics\//),
      },
    });
  });

  test('a running collection (the clock paused): a second of its kind is refused; cancel ends it CANCELLED', async () => {
    expect((await clock('--pause')).code).toBe(0);
    try {
      const started = await dhJson<{ operationId: string }>(
        `diagnostics collect-cm --crn ${crn} --destination SUPPORT --case-number 00123456`,
      );
      await refused(
        dh(`diagnostics collect-cm --crn ${crn} --destination LOCAL`),
        /FAILED_PRECONDITION: cluster team-hub is already running cm diagnostics collection/,
      );
      expect((await dh(`diagnostics cancel --crn ${crn} --yes`)).code).toBe(0);
      const op = await dhJson<Operation>(`operations describe --cluster-name team-hub --operation-id ${started.operationId}`);
      expect(op.operationStatus).toBe('CANCELLED');
      const list = await dhJson<{ collections: Array<{ flowId: string; status: string }> }>(`diagnostics list --crn ${crn}`);
      expect(list.collections.find((c) => c.flowId === started.operationId)?.status).toBe('CANCELLED');
    } finally {
      await clock('--resume');
    }
  });

  test('a fail-diagnostics- cluster: the collection ends FAILED, exit 5', async () => {
    expect((await createHub('fail-diagnostics-hub', DE_AWS, WAIT)).code).toBe(0);
    const hub = (await describeHub('fail-diagnostics-hub')).crn;
    const r = await dh(`diagnostics collect --crn ${hub} --destination LOCAL --description x`, ...WAIT);
    expect([r.code, r.stderr]).toEqual([5, expect.stringMatching(/collectDatahubDiagnostics ended in FAILED/)]);
  });
});

describe('what happened to a cluster', () => {
  test('lifecycle events, scaling activities and host status are read from its operations and instances', async () => {
    await finished('clusters scale --cluster-name team-hub --instance-group-name compute --instance-group-desired-count 3');
    const events = await dhJson<{ clusterEvents: Array<{ eventType: string; eventMessage: string }> }>('events list --cluster team-hub');
    expect(events.clusterEvents.slice(0, 2).map((e) => e.eventMessage)).toEqual(['provision started', 'provision finished']);
    expect(events.clusterEvents.map((e) => e.eventType)).toContain('UPSCALE');
    type Activity = { operationId: string; activityStatus: string; scalingActivityReason: string };
    const acts = await dhJson<{ scalingActivity: Activity[] }>('scaling-activities list --cluster team-hub --duration 1440');
    expect(acts.scalingActivity).toEqual([
      expect.objectContaining({
        activityStatus: 'SCALING_FLOW_SUCCESS',
        scalingActivityReason: 'Manual upscale of instance group compute from 1 to 3 nodes',
      }),
    ]);
    const id = acts.scalingActivity[0]?.operationId ?? '';
    const one = await dhJson<{ scalingActivity: Activity }>(`scaling-activities describe --cluster team-hub --operation-id ${id}`);
    expect(one.scalingActivity.operationId).toBe(id);
    const hosts = await dhJson<{ hosts: Array<{ healthSummary: string }> }>('hosts status --cluster-name team-hub');
    expect(hosts.hosts.map((h) => h.healthSummary)).toEqual(Array(7).fill('GOOD'));
  });
});
