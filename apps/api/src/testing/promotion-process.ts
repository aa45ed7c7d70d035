import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { pastBound, type PromotionBound } from './promotion';

/**
 * What a promotion test measures, set up in a process of its own (`setUpPromotionWork`, exported
 * by the module given to `promotedInFreshProcesses`): `work` run by `promotedInRounds`,
 * `control(true)` keeping its objects the way known to promote them, `close` after.
 */
export interface PromotionWork {
  work: () => Promise<unknown>;
  control: (on: boolean) => void;
  close: () => Promise<void>;
}

/** The bounds of each side: the control past 4 MB (the measure is seen to see), the code under 1. */
const BOUNDS: Record<'control' | 'without', PromotionBound> = {
  control: { above: 4 },
  without: { below: 1 },
};
/** Fresh processes a side may take before its figure stands (each measures in three rounds). */
const PROCESSES = 2;

/** The child's program: the work module and the measure, bundled (packages stay node_modules'). */
function program(workModule: string): string {
  const contents = `
    import { setUpPromotionWork } from ${JSON.stringify(workModule)};
    import { promotedInRounds } from ${JSON.stringify(join(__dirname, 'promotion'))};
    const [side, argument] = process.argv.slice(1);
    (async () => {
      const subject = await setUpPromotionWork(argument);
      try {
        subject.control(side === 'control');
        const promoted = await promotedInRounds(subject.work, ${JSON.stringify(BOUNDS)}[side]);
        process.stdout.write(JSON.stringify({ promoted }));
      } finally {
        await subject.close();
      }
    })().catch((error) => {
      process.stderr.write(String(error?.stack ?? error));
      process.exitCode = 1;
    });
  `;
  return buildSync({
    stdin: { contents, resolveDir: __dirname, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    write: false,
  }).outputFiles[0].text;
}

/** One side measured in a new `node --expose-gc` process: its figure in MB. */
function measuredOnce(
  script: string,
  side: keyof typeof BOUNDS,
  argument: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '-e', script, side, argument], {
      // Packages resolve from the repository's node_modules.
      cwd: join(__dirname, '..', '..', '..', '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`promotion ${side}: exit ${code}\n${err}`));
      else resolve((JSON.parse(out) as { promoted: number }).promoted);
    });
  });
}

/**
 * The two halves of a promotion test: the work with its control on (the objects kept the way known
 * to promote them: past 4 MB, so the measure is seen to see), then the code under test alone
 * (under 1 MB), each in fresh processes started with `node --expose-gc`, so that no figure depends on what the test's worker ran before it: a
 * reused Jest worker's heap carries its earlier files' objects and tables, and a process may fall
 * into promoting from its own history (BENCHMARKS issue 28, session 21 (metricsq)). `workModule`
 * (an absolute path, TypeScript) exports `setUpPromotionWork(argument): Promise<PromotionWork>`;
 * a side that misses its bound is measured again in a new process, up to `PROCESSES` in all.
 */
export async function promotedInFreshProcesses(
  workModule: string,
  argument: string,
): Promise<{ withControl: number; without: number }> {
  const script = program(workModule);
  const side = async (name: keyof typeof BOUNDS) => {
    let promoted = Number.NaN;
    for (let attempt = 0; attempt < PROCESSES; attempt++) {
      promoted = await measuredOnce(script, name, argument);
      if (pastBound(promoted, BOUNDS[name])) break;
    }
    return promoted;
  };
  return { withControl: await side('control'), without: await side('without') };
}
