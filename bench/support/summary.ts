import { loadavg } from 'node:os';

/** One figure of a benchmark for the summary table: the figure, its baseline in the same run, the ratio and its target. */
export interface SummaryRow {
  benchmark: string;
  figure: string;
  value: string;
  baseline: string;
  ratio: number | null;
  /** e.g. `≥ 0.6`, `≤ 1.5`; empty when the issue names none */
  target: string;
  met: boolean | null;
  load: string;
}

const rows: SummaryRow[] = [];

/** the machine's load average (1, 5 and 15 minutes), as every benchmark prints it */
export function loadAverage(): string {
  return loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
}

/** Records a figure; `atLeast`/`atMost` compare the ratio with the target. */
export function record(r: {
  benchmark: string;
  figure: string;
  value: string;
  baseline?: string;
  ratio?: number | null;
  atLeast?: number;
  atMost?: number;
}): void {
  const ratio = r.ratio ?? null;
  const target = r.atLeast !== undefined ? `≥ ${r.atLeast}` : r.atMost !== undefined ? `≤ ${r.atMost}` : '';
  const met =
    ratio === null || target === '' ? null : r.atLeast !== undefined ? ratio >= r.atLeast : ratio <= (r.atMost as number);
  rows.push({
    benchmark: r.benchmark,
    figure: r.figure,
    value: r.value,
    baseline: r.baseline ?? '',
    ratio,
    target,
    met,
    load: loadAverage(),
  });
}

/** The summary of the run as a Markdown table (printed by bench/run.ts after every benchmark). */
export function summaryTable(): string {
  if (!rows.length) return '';
  const head =
    '| benchmark | figure | value | baseline | ratio | target | met | load average |\n|---|---|---|---|---|---|---|---|';
  const lines = rows.map(
    (r) =>
      `| ${r.benchmark} | ${r.figure} | ${r.value} | ${r.baseline} | ${r.ratio === null ? '' : r.ratio.toFixed(2)} | ${r.target} | ${
        r.met === null ? '' : r.met ? 'yes' : 'no'
      } | ${r.load} |`,
  );
  return [head, ...lines].join('\n');
}
