import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { HELM, ROOT } from './support/processes';

const CHART = join(ROOT, 'deploy', 'helm', 'interlock');
const REQUIRED = [
  '--set',
  'database.existingSecret=interlock-db',
  '--set',
  'secrets.existingSecret=interlock-secrets',
];

interface Manifest {
  kind: string;
  metadata: { name: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec: any;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}

function render(...args: string[]): Manifest[] {
  const out = execFileSync(HELM, ['template', 'acme', CHART, ...REQUIRED, ...args], {
    encoding: 'utf8',
  });
  return loadAll(out).filter((m): m is Manifest => m !== null && typeof m === 'object');
}
const one = (manifests: Manifest[], kind: string, name?: string): Manifest => {
  const found = manifests.filter(
    (m) => m.kind === kind && (name === undefined || m.metadata.name === name),
  );
  expect(found).toHaveLength(1);
  return found[0];
};
const envOf = (container: { env: EnvVar[] }) => new Map(container.env.map((e) => [e.name, e]));

describe('deploy/helm/interlock', () => {
  it('passes helm lint --strict', () => {
    const out = execFileSync(HELM, ['lint', CHART, '--strict', ...REQUIRED], { encoding: 'utf8' });
    expect(out).toContain('0 chart(s) failed');
  });

  it('refuses to render without the database and secrets it references', () => {
    const bare = spawnSync(HELM, ['template', 'acme', CHART], { encoding: 'utf8' });
    expect(bare.status).not.toBe(0);
    expect(bare.stderr).toContain('database.existingSecret is required');
    const noSecrets = spawnSync(
      HELM,
      ['template', 'acme', CHART, '--set', 'database.existingSecret=db'],
      { encoding: 'utf8' },
    );
    expect(noSecrets.stderr).toContain('secrets.existingSecret is required');
  });

  describe('with the defaults', () => {
    const manifests = render();
    const deployment = one(manifests, 'Deployment');
    const pod = deployment.spec.template.spec;
    const api = pod.containers[0];
    const env = envOf(api);

    it('probes the health routes: readiness /health/ready, liveness and start-up /health/live', () => {
      expect(api.readinessProbe.httpGet).toEqual({ path: '/health/ready', port: 'http' });
      expect(api.livenessProbe.httpGet).toEqual({ path: '/health/live', port: 'http' });
      expect(api.startupProbe.httpGet).toEqual({ path: '/health/live', port: 'http' });
    });

    it('gives the SIGTERM drain its time: the grace period outlasts the service’s own shutdown timeout', () => {
      const drainMs = Number(env.get('SHUTDOWN_DRAIN_DELAY_MS')?.value);
      const timeoutMs = Number(env.get('SHUTDOWN_TIMEOUT_MS')?.value);
      expect(drainMs).toBe(5000);
      expect(timeoutMs).toBeGreaterThan(drainMs);
      expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(timeoutMs);
    });

    it('requests resources and runs unprivileged on a read-only root', () => {
      expect(api.resources.requests).toEqual({ cpu: '250m', memory: '256Mi' });
      expect(api.resources.limits.memory).toBe('512Mi');
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(api.securityContext).toMatchObject({
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
      });
    });

    it('takes the database URL and the pepper from Secrets by reference, never as values', () => {
      expect(env.get('DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({
        name: 'interlock-db',
        key: 'DATABASE_URL',
      });
      expect(env.get('API_KEY_PEPPER')?.valueFrom?.secretKeyRef).toEqual({
        name: 'interlock-secrets',
        key: 'API_KEY_PEPPER',
      });
      expect(env.has('DATABASE_DIRECT_URL')).toBe(false);
      expect(env.get('NODE_ENV')?.value).toBe('production');
      expect(manifests.some((m) => m.kind === 'Secret')).toBe(false);
      expect(JSON.stringify(manifests)).not.toMatch(/postgres(ql)?:\/\//);
    });

    it('serves metrics on their own port, through a Service of their own, never the public one', () => {
      expect(env.get('METRICS_PORT')?.value).toBe('9464');
      expect(api.ports).toEqual([
        { name: 'http', containerPort: 3000 },
        { name: 'metrics', containerPort: 9464 },
      ]);
      const service = one(manifests, 'Service', 'acme-interlock');
      expect(service.spec.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http' }]);
      const metrics = one(manifests, 'Service', 'acme-interlock-metrics');
      expect(metrics.spec).toMatchObject({
        type: 'ClusterIP',
        ports: [{ name: 'metrics', port: 9464, targetPort: 'metrics' }],
      });
      expect(deployment.spec.template.metadata.annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': '9464',
      });
    });

    it('scales with an HPA (no fixed replica count) and keeps a pod through disruptions', () => {
      expect(deployment.spec.replicas).toBeUndefined();
      expect(deployment.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
      const hpa = one(manifests, 'HorizontalPodAutoscaler');
      expect(hpa.spec).toMatchObject({
        scaleTargetRef: { kind: 'Deployment', name: 'acme-interlock' },
        minReplicas: 2,
        maxReplicas: 10,
      });
      const pdb = one(manifests, 'PodDisruptionBudget');
      expect(pdb.spec.minAvailable).toBe(1);
      expect(deployment.spec.template.metadata.labels).toMatchObject(pdb.spec.selector.matchLabels);
      expect(deployment.spec.template.metadata.labels).toMatchObject(
        one(manifests, 'Service', 'acme-interlock').spec.selector,
      );
    });

    it('migrates in a Job before install and upgrade, with the same database settings', () => {
      const job = one(manifests, 'Job');
      expect(job.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
      const migrate = job.spec.template.spec.containers[0];
      expect(migrate.command).toEqual(['node', 'dist/apps/api/migrate.js', 'run']);
      expect(job.spec.template.spec.restartPolicy).toBe('Never');
      expect(envOf(migrate).get('DATABASE_URL')).toEqual(env.get('DATABASE_URL'));
    });

    it('has no Ingress unless asked', () => {
      expect(manifests.some((m) => m.kind === 'Ingress')).toBe(false);
    });
  });

  it('runs behind a PgBouncer in transaction mode: DATABASE_DIRECT_URL from the Secret, for the pods and the migration', () => {
    const manifests = render(
      '--set',
      'database.directUrlKey=DATABASE_DIRECT_URL',
      '--set',
      'database.urlKey=PGBOUNCER_URL',
    );
    for (const container of [
      one(manifests, 'Deployment').spec.template.spec.containers[0],
      one(manifests, 'Job').spec.template.spec.containers[0],
    ]) {
      const env = envOf(container);
      expect(env.get('DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({
        name: 'interlock-db',
        key: 'PGBOUNCER_URL',
      });
      expect(env.get('DATABASE_DIRECT_URL')?.valueFrom?.secretKeyRef).toEqual({
        name: 'interlock-db',
        key: 'DATABASE_DIRECT_URL',
      });
    }
  });

  it('renders the optional Ingress to the http port, the drain from values, and fixed replicas without the HPA', () => {
    const manifests = render(
      '--set',
      'ingress.enabled=true',
      '--set',
      'ingress.className=nginx',
      '--set',
      'ingress.hosts[0].host=review.acme.test',
      '--set',
      'ingress.hosts[0].paths[0]=/',
      '--set',
      'shutdown.drainDelaySeconds=10',
      '--set',
      'shutdown.timeoutSeconds=50',
      '--set',
      'autoscaling.enabled=false',
      '--set',
      'replicaCount=3',
      '--set',
      'metrics.enabled=false',
    );
    const ingress = one(manifests, 'Ingress');
    expect(ingress.spec.ingressClassName).toBe('nginx');
    expect(ingress.spec.rules[0]).toEqual({
      host: 'review.acme.test',
      http: {
        paths: [
          {
            path: '/',
            pathType: 'Prefix',
            backend: { service: { name: 'acme-interlock', port: { name: 'http' } } },
          },
        ],
      },
    });
    const deployment = one(manifests, 'Deployment');
    const env = envOf(deployment.spec.template.spec.containers[0]);
    expect(env.get('SHUTDOWN_DRAIN_DELAY_MS')?.value).toBe('10000');
    expect(env.get('SHUTDOWN_TIMEOUT_MS')?.value).toBe('60000');
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBe(65);
    expect(deployment.spec.replicas).toBe(3);
    expect(manifests.some((m) => m.kind === 'HorizontalPodAutoscaler')).toBe(false);
    expect(env.has('METRICS_PORT')).toBe(false);
    expect(manifests.some((m) => m.metadata.name.endsWith('-metrics'))).toBe(false);
  });
});
