// `pnpm test` runs this first: it makes sure that what the tests need outside node_modules is there,
// so that a missing piece fails here, at once, in one line naming it, and never as a test file
// failing minutes into the run.
//
// - PostgreSQL: the tests use TEST_PG_URL (default postgresql://postgres@127.0.0.1:5432/postgres,
//   trust auth). When that is the local server and it does not answer, the local cluster is started
//   (Debian's pg_ctlcluster, as root). A server elsewhere is only checked, never started.
// - Chromium: tests/settings-browser.test.ts drives CHROMIUM_PATH (default /usr/bin/chromium) through
//   playwright-core. When it is missing, Debian's chromium is installed with apt-get, non-interactively,
//   when running as root; TEST_PREREQUISITES_INSTALL=false forbids installing.
//
// Only Node's own modules: this runs before anything else of the test command.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, statSync } from 'node:fs';
import net from 'node:net';

const DEFAULT_PG_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
const DEFAULT_CHROMIUM = '/usr/bin/chromium';
const PG_START_WAIT_MS = 60_000;

const say = (line) => process.stderr.write(`test prerequisites: ${line}\n`);

/** A program on PATH (or an absolute path) that can be run. */
function onPath(program) {
  const result = spawnSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return result.status === 0 && result.stdout.trim() !== '';
}

function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function installSwitchedOff() {
  const v = (process.env.TEST_PREREQUISITES_INSTALL ?? '').trim().toLowerCase();
  return v === 'false' || v === '0' || v === 'no' || v === 'off';
}

// ---------------------------------------------------------------- Chromium

/** @returns {string | null} null when Chromium is there (or was installed), else the line saying what is missing */
function ensureChromium() {
  const file = process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM;
  if (executable(file)) return null;
  const missing = `Chromium is missing at ${file} (tests/settings-browser.test.ts drives it)`;
  const howTo = `install Debian's chromium as root (apt-get install chromium), or set CHROMIUM_PATH to a Chromium binary`;
  if (installSwitchedOff()) return `${missing}; installing is switched off (TEST_PREREQUISITES_INSTALL): ${howTo}`;
  if (!isRoot()) return `${missing}; not running as root, so it cannot be installed here: ${howTo}`;
  if (!onPath('apt-get')) return `${missing}; there is no apt-get to install it with: ${howTo}`;

  say(`${missing}; installing Debian's chromium (apt-get)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // no stdin (CI has none); wait for a lock another apt holds rather than failing on it
  const apt = (args, stdout) =>
    spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', ...args], { env, stdio: ['ignore', stdout, 'inherit'] });
  const update = apt(['update', '-qq'], 'inherit');
  if (update.status !== 0) return `${missing}; apt-get update failed (exit ${update.status ?? update.signal}): ${howTo}`;
  const install = apt(['install', '-y', '-qq', 'chromium'], 'ignore');
  if (install.status !== 0)
    return `${missing}; apt-get install chromium failed (exit ${install.status ?? install.signal}): ${howTo}`;
  if (executable(file)) return null;
  return `Debian's chromium is installed, but ${file} is still missing: set CHROMIUM_PATH to the Chromium binary (Debian's is ${DEFAULT_CHROMIUM})`;
}

// ---------------------------------------------------------------- PostgreSQL

function pgTarget() {
  const url = process.env.TEST_PG_URL || DEFAULT_PG_URL;
  let host = '127.0.0.1';
  let port = 5432;
  try {
    const parsed = new URL(url);
    host = parsed.hostname.replace(/^\[|\]$/g, '') || 'localhost';
    port = parsed.port ? Number(parsed.port) : 5432;
  } catch {
    // not a URL (a key=value connection string): pg_isready reads it; the TCP fallback tries the default
  }
  const local = ['127.0.0.1', 'localhost', '::1'].includes(host) && port === 5432;
  return { url, host, port, local, fromEnv: Boolean(process.env.TEST_PG_URL) };
}

/** Is the server accepting connections? pg_isready when installed (it knows "starting up"), else a TCP connect. */
async function pgAnswers(target) {
  if (onPath('pg_isready')) {
    const r = spawnSync('pg_isready', ['-q', '-t', '3', '-d', target.url], { stdio: 'ignore' });
    return r.status === 0;
  }
  return new Promise((resolve) => {
    const socket = net.connect({ host: target.host, port: target.port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(3000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** The newest cluster Debian's postgresql-common knows of, as [version, name]. */
function localCluster() {
  let versions = [];
  try {
    versions = readdirSync('/etc/postgresql').filter((v) => /^\d+(\.\d+)?$/.test(v));
  } catch {
    return null; // no /etc/postgresql: no Debian cluster
  }
  const newest = versions
    .sort((a, b) => Number(b) - Number(a))
    .find((v) => existsSync(`/etc/postgresql/${v}/main/postgresql.conf`));
  return newest ? [newest, 'main'] : null;
}

/**
 * @param {boolean} mayStart false once another prerequisite is missing: then only say whether it answers
 * @returns {Promise<string | null>} null when the server answers (or was started), else the line saying what is missing
 */
async function ensurePostgres(mayStart) {
  const target = pgTarget();
  const where = `${target.host}:${target.port}`;
  if (await pgAnswers(target)) return null;
  if (!target.local) {
    return `PostgreSQL is not answering at ${where} (TEST_PG_URL): start that server, or unset TEST_PG_URL to use the local one on 127.0.0.1:5432`;
  }
  const howTo =
    'install and start a PostgreSQL server on 127.0.0.1:5432 with trust auth for the user postgres (Debian: apt-get install postgresql), or set TEST_PG_URL to one';
  const cluster = localCluster();
  if (!cluster || !onPath('pg_ctlcluster'))
    return `PostgreSQL is not answering on ${where} and no local cluster was found: ${howTo}`;
  const [version, name] = cluster;
  const startIt = `start it as root (pg_ctlcluster ${version} ${name} start), or set TEST_PG_URL to a server`;
  if (!mayStart) return `PostgreSQL is not answering on ${where} (not started, as the test run stops here): ${startIt}`;

  say(`PostgreSQL is not answering on ${where}; starting the local cluster ${version}/${name}`);
  const start = spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, name, 'start'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // a refused start (not root, a broken cluster) fails at once; a started one gets a minute to answer
  const deadline = Date.now() + (start.status === 0 ? PG_START_WAIT_MS : 0);
  do {
    if (await pgAnswers(target)) return null;
    if (Date.now() < deadline) await new Promise((r) => setTimeout(r, 1000));
  } while (Date.now() < deadline);
  const said = `${start.stderr ?? ''}\n${start.stdout ?? ''}`.trim().split('\n').filter(Boolean);
  const why = said.length > 0 ? `${said[0].trim()}, exit ${start.status}` : `exit ${start.status}`;
  return `PostgreSQL is not answering on ${where} and starting cluster ${version}/${name} failed (${why}): ${startIt}`;
}

// ---------------------------------------------------------------- PostgreSQL server binaries

/**
 * tests/read-replicas.test.ts and tests/topology.test.ts start PostgreSQL servers of their own
 * (tests/support/pg-cluster.ts: initdb, pg_ctl, pg_basebackup from PG_BIN, Debian's PostgreSQL 15
 * by default); as root they run them as the user `postgres` through runuser. Only checked.
 * @returns {string | null} null when they are there, else the line saying what is missing
 */
function serverBinaries() {
  const dir = process.env.PG_BIN || '/usr/lib/postgresql/15/bin';
  const absent = ['initdb', 'pg_ctl', 'pg_basebackup'].filter((b) => !executable(`${dir}/${b}`));
  const uses = 'tests/read-replicas.test.ts and tests/topology.test.ts start servers of their own';
  if (absent.length > 0)
    return `PostgreSQL's server binaries ${absent.join(', ')} are missing in ${dir} (${uses}): install Debian's postgresql-15, or set PG_BIN to a folder holding them`;
  if (isRoot()) {
    const user = spawnSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
    if (user.status !== 0 || !onPath('runuser'))
      return `running as root, the servers those tests start run as the user postgres through runuser, and there is no such user or no runuser: install Debian's postgresql-15, or run the tests as another user`;
  }
  return null;
}

// each missing piece is said as soon as it is known; nothing is started once the run cannot go ahead
const chromium = ensureChromium();
if (chromium) say(`MISSING: ${chromium}`);
const binaries = serverBinaries();
if (binaries) say(`MISSING: ${binaries}`);
const postgres = await ensurePostgres(chromium === null && binaries === null);
if (postgres) say(`MISSING: ${postgres}`);
process.exit(chromium || binaries || postgres ? 1 : 0);
