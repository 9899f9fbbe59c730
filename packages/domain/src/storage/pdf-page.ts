import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * The first page of a PDF as a PNG, at most `size` pixels on its longest side:
 * rendered by pdf.js (pdfjs-dist, Mozilla's PDF renderer) onto a Skia canvas
 * (@napi-rs/canvas, which pdf.js uses in Node), in a worker thread so that a
 * heavy page never holds the event loop, and ended past PDF_RENDER_TIMEOUT_MS.
 * No script in the PDF runs (eval off, no XFA), and no font is fetched (pdf.js's
 * own standard fonts). Null when it cannot be rendered: the caller answers the
 * type icon. At most PDF_RENDER_CONCURRENCY renders run at once.
 */
export const PDF_RENDER_MAX_BYTES = 20 * 1024 * 1024;
export const PDF_RENDER_TIMEOUT_MS = 15_000;
const PDF_RENDER_CONCURRENCY = 2;

const require = createRequire(import.meta.url);
let fontsDir: string | null = null;
function standardFonts(): string {
  fontsDir ??= `${path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;
  return fontsDir;
}

let running = 0;
const waiting: (() => void)[] = [];

async function slot<T>(run: () => Promise<T>): Promise<T> {
  if (running >= PDF_RENDER_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await run();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

export function renderPdfFirstPage(bytes: Uint8Array, size: number): Promise<Buffer | null> {
  return slot(
    () =>
      new Promise<Buffer | null>((resolve) => {
        let worker: Worker;
        try {
          worker = new Worker(new URL('./pdf-render.worker.mjs', import.meta.url), {
            workerData: { bytes, size, fonts: standardFonts() },
            resourceLimits: { maxOldGenerationSizeMb: 256 },
          });
        } catch {
          resolve(null);
          return;
        }
        const timer = setTimeout(() => {
          void worker.terminate();
          resolve(null);
        }, PDF_RENDER_TIMEOUT_MS);
        worker.once('message', (m: { png: Uint8Array | null }) => {
          clearTimeout(timer);
          void worker.terminate();
          resolve(m.png ? Buffer.from(m.png) : null);
        });
        worker.once('error', () => {
          clearTimeout(timer);
          resolve(null);
        });
        worker.once('exit', () => {
          clearTimeout(timer);
          resolve(null);
        });
      }),
  );
}
