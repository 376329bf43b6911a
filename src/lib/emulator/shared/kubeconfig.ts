/**
 * The kubeconfig document the emulated services hand out for the Kubernetes
 * clusters they run (Data Engineering, Machine Learning, Data Warehouse, DataFlow),
 * written once: its cluster's API server and made-up certificate authority,
 * one context, and one user who authenticates with a token or through a
 * credential plugin (`aws eks get-token`, `kubelogin`).
 */

export interface KubeconfigSpec {
  /** The cluster's name, which also names its context. */
  readonly cluster: string;
  /** The API server's URL. */
  readonly server: string;
  /** The body of its certificate authority's PEM (base64); left out: the document names none. */
  readonly ca?: string;
  /** The user's name. */
  readonly user: string;
  /** How the user authenticates: a bearer token, or a credential plugin run with these arguments. */
  readonly auth: { readonly token: string } | { readonly exec: { readonly command: string; readonly args?: readonly string[] } };
}

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

/** A kubeconfig document (YAML), as `kubectl` reads it. */
export function kubeconfig(spec: KubeconfigSpec): string {
  const { cluster, user, auth } = spec;
  const ca =
    spec.ca === undefined
      ? []
      : [`      certificate-authority-data: ${b64(`-----BEGIN CERTIFICATE-----\n${spec.ca}\n-----END CERTIFICATE-----\n`)}`];
  const credential =
    'token' in auth
      ? [`      token: ${auth.token}`]
      : [
          '      exec:',
          '        apiVersion: client.authentication.k8s.io/v1beta1',
          `        command: ${auth.exec.command}`,
          ...(auth.exec.args && auth.exec.args.length > 0 ? ['        args:', ...auth.exec.args.map((a) => `          - ${a}`)] : []),
        ];
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `  - name: ${cluster}`,
    '    cluster:',
    `      server: ${spec.server}`,
    ...ca,
    'contexts:',
    `  - name: ${cluster}`,
    '    context:',
    `      cluster: ${cluster}`,
    `      user: ${user}`,
    `current-context: ${cluster}`,
    'users:',
    `  - name: ${user}`,
    '    user:',
    ...credential,
    '',
  ].join('\n');
}
