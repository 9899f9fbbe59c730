import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The README's start command runs the service at the end of a chain of launchers:
 * npx → sh -c → pnpm → sh -c → node scripts/start.mjs (the compiled start; the lone
 * apps still have tsx's CLI between pnpm and node). A process manager sends SIGTERM
 * to the first of them, and that chain does not pass it on: npx exits, the rest keep
 * running. So the service watches its launchers: when any of them is gone, it
 * stops as it would on SIGTERM. (Started directly, `node scripts/start.mjs`, it has
 * no launcher and gets the signal itself. With WEB_CONCURRENCY the cluster primary
 * watches; its processes have the primary above them, which is no launcher.)
 */

interface Proc {
  pid: number;
  ppid: number;
  argv: string[];
}

function readProc(pid: number): Proc | null {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name may hold spaces and parentheses: fields follow the last ')'
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return { pid, ppid, argv };
  } catch {
    // not Linux (or /proc hidden): ask ps
    try {
      const out = execFileSync('ps', ['-o', 'ppid=,args=', '-p', String(pid)], { encoding: 'utf8' }).trim();
      const m = /^(\d+)\s+(.*)$/.exec(out);
      return m ? { pid, ppid: Number(m[1]), argv: (m[2] ?? '').split(' ') } : null;
    } catch {
      return null;
    }
  }
}

/** npm/npx (whose title is "npm exec …"), pnpm, tsx's CLI, or a `sh -c` between them. */
export function isLauncher(argv: string[]): boolean {
  const [first = '', second = ''] = argv;
  const base = path.basename(first);
  if (/^npm( |$)/.test(first) || base === 'npx' || base === 'npm' || base === 'pnpm') return true;
  if (['sh', 'bash', 'dash'].includes(base) && second === '-c') return true;
  if (base === 'node' || base === 'nodejs') {
    const script = second.split(path.sep).slice(-3).join('/');
    return /(^|\/)(pnpm\/bin\/pnpm\.c?js|pnpm\.c?js|bin\/npx-cli\.js|bin\/npm-cli\.js|tsx\/dist\/cli\.mjs)$/.test(script);
  }
  return false;
}

/** The chain of launchers above this process, nearest first. */
export function launcherChain(): number[] {
  const chain: number[] = [];
  let pid = process.ppid;
  for (let depth = 0; depth < 12 && pid > 1; depth += 1) {
    const proc = readProc(pid);
    if (!proc || !isLauncher(proc.argv)) break;
    chain.push(pid);
    pid = proc.ppid;
  }
  return chain;
}

/** Calls `onGone` once when any launcher above this process has exited; returns a function that stops watching. */
export function watchLaunchers(onGone: () => void, intervalMs = 250): () => void {
  const chain = launcherChain();
  if (chain.length === 0) return () => {};
  const timer = setInterval(() => {
    const gone = chain.some((pid) => {
      try {
        process.kill(pid, 0);
        return false;
      } catch (err) {
        return (err as NodeJS.ErrnoException).code === 'ESRCH';
      }
    });
    if (gone) {
      clearInterval(timer);
      onGone();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
