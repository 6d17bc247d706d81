/**
 * Key custody in deploy/k8s (issue 16): the pair's daemon holds no key and reaches the signer
 * sidecar over a socket volume; the keystore Secret reaches only a one-shot copier that hands the
 * signer a private (0400) copy in memory.
 */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { parseFlags } from '../../src/cli/args.ts';
import { RUN_OPTIONS } from '../../src/cli/run.ts';
import { SIGNER_SERVE_OPTIONS } from '../../src/cli/signer.ts';

const manifest = parseAllDocuments(readFileSync(new URL('../../deploy/k8s/account-deployment.yaml', import.meta.url), 'utf8'))
  .map((doc) => doc.toJS() as { kind: string; spec?: { template: { spec: IPodSpec } } })
  .find((doc) => doc.kind === 'Deployment');
const pod = manifest?.spec?.template.spec as IPodSpec;
const daemon = pod.containers[0] as IContainer;
const initContainers = pod.initContainers ?? [];
const signer = initContainers.find((container) => container.restartPolicy === 'Always') as IContainer;
const copier = initContainers.find((container) => container.restartPolicy === undefined) as IContainer;
const volume = (name: string) => pod.volumes?.find((v) => v.name === name);
const mountOf = (container: IContainer, path: string) => container.volumeMounts?.find((mount) => path.startsWith(`${mount.mountPath}/`));
const users = (container: IContainer): string[] => [container.name];

describe('deploy/k8s key custody', () => {
  it('runs the daemon with no key: SIGNER_REMOTE, and no volume but the pair file, its state and the socket', () => {
    expect(daemon.env).toContainEqual({ name: 'SIGNER_REMOTE', value: 'unix:/run/akira-signer/signer.sock' });
    const secretMounts = (daemon.volumeMounts ?? []).filter((mount) => volume(mount.name)?.secret !== undefined);
    expect(secretMounts.map((mount) => mount.name)).toEqual(['pair-env']);
    expect(mountOf(daemon, '/run/akira-signer/signer.sock')?.name).toBe('signer-socket');
  });

  it('runs `signer serve` as a native sidecar, on the pair file, with a 0660 socket in the volume it shares with the daemon', () => {
    expect(signer.name).toBe('signer');
    const args = signer.args ?? [];
    expect(args.slice(0, 2)).toEqual(['signer', 'serve']);
    const { values } = parseFlags(args.slice(2), SIGNER_SERVE_OPTIONS, 'manifest');
    expect(values['socket-mode']).toBe('660');
    expect(mountOf(signer, values.socket ?? '')?.name).toBe('signer-socket');
    // Its policy covers every pair the daemon quotes: the same pair files.
    const daemonFiles = (parseFlags((daemon.args ?? []).slice(1), RUN_OPTIONS, 'manifest').values.env ?? []);
    expect(values.env).toEqual(daemonFiles);
    for (const file of values.env ?? []) expect(mountOf(signer, file)?.name).toBe('pair-env');
    for (const path of [values.keystore, values['password-file']]) {
      const mount = mountOf(signer, path ?? '');
      expect(mount?.readOnly).toBe(true);
      expect(volume(mount?.name ?? '')?.emptyDir?.medium).toBe('Memory');
    }
    // The socket's group is the pod's fsGroup, which every container has.
    expect(signer.securityContext?.runAsGroup).toBe(pod.securityContext?.fsGroup);
    expect(JSON.stringify(signer.startupProbe)).toContain('test -S /run/akira-signer/signer.sock');
  });

  it('lets only the copier see the keystore Secret, and makes the signer\'s copy 0400 as the signer\'s user', () => {
    const holders = [...pod.containers, ...initContainers].filter((container) => (container.volumeMounts ?? []).some((mount) => mount.name === 'signer-secret'));
    expect(holders.flatMap(users)).toEqual([copier.name]);
    expect(copier.command?.join(' ')).toContain('install -m 0400 /secrets/keystore.json /secrets/password /keys/');
    expect(copier.securityContext?.runAsUser).toBe(signer.securityContext?.runAsUser);
    expect(mountOf(copier, '/keys/keystore.json')?.name).toBe('signer-keys');
    const hardened = [signer, copier].map((container) => container.securityContext);
    for (const context of hardened) expect(context).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
  });
});
