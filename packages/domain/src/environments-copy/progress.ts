/**
 * Progress on standard error: a bar redrawn in place on a terminal, plain lines otherwise (a log
 * file or a pipe gets one line per table and one every few seconds, never carriage returns).
 */
export interface ProgressSink {
  isTTY?: boolean;
  write(text: string): unknown;
}

export interface Progress {
  start(total: number, done: number): void;
  advance(table: string, rows: number): void;
  tableDone(table: string, rows: number): void;
  note(text: string): void;
  finish(summary: string): void;
}

const WIDTH = 30;
const REDRAW_MS = 100;
const LINE_MS = 5_000;

export function progressOn(sink: ProgressSink | null, now: () => number = Date.now): Progress {
  let total = 0;
  let done = 0;
  let startedAt = now();
  let startDone = 0;
  let lastDraw = 0;
  let table = '';
  const tty = sink?.isTTY === true;
  const rate = () => {
    const s = (now() - startedAt) / 1000;
    return s > 0 ? Math.round((done - startDone) / s) : 0;
  };
  const describe = () => `${done}/${total} rows, ${rate()} rows/s, ${table}`;
  const draw = (force: boolean) => {
    if (!sink) return;
    const t = now();
    if (!force && t - lastDraw < (tty ? REDRAW_MS : LINE_MS)) return;
    lastDraw = t;
    if (tty) {
      const share = total > 0 ? Math.min(1, done / total) : 0;
      const filled = Math.round(share * WIDTH);
      sink.write(`\r\x1b[K[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${Math.round(share * 100)}% ${describe()}`);
    } else sink.write(`copy: ${describe()}\n`);
  };
  return {
    start(t, d) {
      total = t;
      done = d;
      startDone = d;
      startedAt = now();
      draw(true);
    },
    advance(name, rows) {
      table = name;
      done += rows;
      draw(false);
    },
    tableDone(name, rows) {
      table = name;
      if (!tty && sink) sink.write(`copy: ${name} done (${rows} rows)\n`);
      else draw(true);
    },
    note(text) {
      if (!sink) return;
      sink.write(tty ? `\r\x1b[K${text}\n` : `copy: ${text}\n`);
      draw(true);
    },
    finish(summary) {
      if (!sink) return;
      sink.write(tty ? `\r\x1b[K${summary}\n` : `copy: ${summary}\n`);
    },
  };
}
