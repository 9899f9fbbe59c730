// Stops PostgreSQL servers a benchmark started, once that benchmark's process is gone however it went
// (pg_ctl's servers outlive it: a SIGKILL, or tsx killing its child when a signal is not answered within
// 60 ms, would leave them running). Started detached by server-reaper.ts with the state file, the
// benchmark's pid and PostgreSQL's bin folder. The state file lists folders, one a line (each holding
// data folders of servers); the benchmark deletes it when it has cleaned up itself, and this process ends.
const { execFileSync } = require('node:child_process');
const { existsSync, readFileSync, readdirSync, rmSync } = require('node:fs');
const path = require('node:path');

const [stateFile, pidText, pgBin] = process.argv.slice(2);
const pid = Number(pidText);
const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function alive(p) {
  try {
    process.kill(p, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

function reap() {
  let roots = [];
  try {
    roots = readFileSync(stateFile, 'utf8').split('\n').filter(Boolean);
  } catch {
    return;
  }
  for (const root of roots) {
    let entries = [];
    try {
      entries = readdirSync(root);
    } catch {
      continue;
    }
    for (const name of entries) {
      const dir = path.join(root, name);
      if (!existsSync(path.join(dir, 'postmaster.pid'))) continue;
      const ctl = path.join(pgBin, 'pg_ctl');
      const args = ['-D', dir, '-w', '-t', '30', '-m', 'immediate', 'stop'];
      try {
        if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', ctl, ...args], { stdio: 'ignore' });
        else execFileSync(ctl, args, { stdio: 'ignore' });
      } catch {
        // not running after all
      }
    }
    rmSync(root, { recursive: true, force: true });
  }
  // the state file's folder is the watch's own
  rmSync(path.dirname(stateFile), { recursive: true, force: true });
}

const timer = setInterval(() => {
  if (!existsSync(stateFile)) {
    clearInterval(timer);
    return;
  }
  if (!alive(pid)) {
    clearInterval(timer);
    reap();
  }
}, 500);
