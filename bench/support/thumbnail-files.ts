import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { renderInvoicePdf } from '@bo/domain/invoices/pdf/render-invoice-pdf';
import type { RenderJob } from '@bo/domain/rendering/render-pool';
import { DEFAULT_MAX_IMAGE_PIXELS } from '@bo/domain/uploads/upload-config';

/**
 * The ordinary files of the thumbnail benchmark (thumbnails.bench.ts) and its profiling aid
 * (tools/thumbnail-costs.ts): a 6-megapixel JPEG photo, a PNG screenshot and a one-page PDF
 * (an invoice as the service renders it), as jobs of `size` pixels.
 */
export async function ordinaryFiles(size: number): Promise<{ name: string; job: RenderJob }[]> {
  // a photo: smooth colour (a small random picture enlarged) with grain, about 1.2 MB as a camera's JPEG
  const width = 3000;
  const height = 2000;
  const smooth = await sharp(randomBytes(300 * 200 * 3), { raw: { width: 300, height: 200, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  const grain = randomBytes(smooth.length);
  for (let i = 0; i < smooth.length; i += 1)
    smooth[i] = Math.min(255, ((smooth[i] as number) * 7 + (grain[i] as number) / 8) >> 3);
  const photo = await sharp(smooth, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
  const screen = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="1440" height="900"><rect width="1440" height="900" fill="#f4f4f4"/>` +
      `<rect x="0" y="0" width="1440" height="64" fill="#1d4e89"/><rect x="40" y="120" width="600" height="700" fill="#fff" stroke="#ccc"/>` +
      `<text x="60" y="180" font-size="32" font-family="sans-serif">Quarterly figures</text>` +
      Array.from(
        { length: 12 },
        (_, i) => `<rect x="${700 + i * 55}" y="${800 - i * 50}" width="40" height="${i * 50}" fill="#3a7"/>`,
      ).join('') +
      '</svg>',
  );
  const screenshot = await sharp(screen).png().toBuffer();
  const pdf = await renderInvoicePdf({
    title: 'Invoice',
    invoiceNumber: 'F2026-0042',
    invoiceDate: '2026-03-31',
    dueDate: '2026-04-30',
    company: {
      name: 'Acme B.V.',
      address: ['Main street 1', '1234 AB Utrecht', 'NL'],
      vatNumber: 'NL001',
      bankAccount: 'NL00BANK0123456789',
    },
    debtor: { name: 'Globex', address: ['Side street 2', '5678 CD Delft'] },
    subject: 'Work in March',
    reference: 'PO-7',
    lines: Array.from({ length: 12 }, (_, i) => ({
      description: `Consultancy, week ${i + 1}`,
      quantity: '8.0000',
      price: '95.0000',
      amount: '760.00',
      vatPercentage: '21.0000',
    })),
    vatByClass: [{ percentage: '21.0000', base: '9120.00', vat: '1915.20' }],
    totalExcl: '9120.00',
    totalVat: '1915.20',
    totalIncl: '11035.20',
    creditOf: null,
  });
  const maxPixels = DEFAULT_MAX_IMAGE_PIXELS;
  return [
    {
      name: `photo.jpg (${(photo.length / 1e6).toFixed(1)} MB, ${width} × ${height})`,
      job: { kind: 'image-thumbnail', bytes: photo, size: size, maxPixels },
    },
    {
      name: `screenshot.png (${(screenshot.length / 1e3).toFixed(0)} kB, 1440 × 900)`,
      job: { kind: 'image-thumbnail', bytes: screenshot, size: size, maxPixels },
    },
    {
      name: `invoice.pdf (${(pdf.length / 1e3).toFixed(0)} kB, one page)`,
      job: { kind: 'pdf-thumbnail', bytes: pdf, size: size, maxPixels, maxPaints: 100_000, maxContentBytes: 64 * 1024 * 1024 },
    },
  ];
}

/** processor time (user and system) of a process, from /proc, in ms; NaN where it cannot be read */
export function processCpuMs(pid: number): number {
  try {
    // the fields after the command's name (which may hold spaces): utime and stime are the 12th and 13th
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * Processor time of this process and of a pool's render processes, those replaced meanwhile
 * included (each is read every 20 ms: one that ends is counted up to its last reading), and
 * how many render processes were seen: a side's CPU per job, whichever process spent it.
 */
export class RenderCpu {
  private readonly seen = new Map<number, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pids: () => number[]) {
    this.timer = setInterval(() => this.sample(), 20);
    this.timer.unref();
  }

  private sample(): void {
    for (const pid of this.pids()) {
      const ms = processCpuMs(pid);
      if (!Number.isNaN(ms)) this.seen.set(pid, ms);
    }
  }

  /** ms of processor time so far: this process's and the render processes' */
  now(): { own: number; render: number; processes: number } {
    this.sample();
    const c = process.cpuUsage();
    let render = 0;
    for (const ms of this.seen.values()) render += ms;
    return { own: (c.user + c.system) / 1000, render, processes: this.seen.size };
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
