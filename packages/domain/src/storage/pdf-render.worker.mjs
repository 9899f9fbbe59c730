// Renders the first page of a PDF to PNG in a worker thread (see pdf-page.ts):
// pdf.js runs synchronous work for seconds on a heavy page, which must not
// hold the service's event loop; the parent ends this thread past its time limit.
import { parentPort, workerData } from 'node:worker_threads';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const { bytes, size, fonts } = workerData;

async function render() {
  const doc = await getDocument({
    data: bytes,
    isEvalSupported: false,
    enableXfa: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl: fonts,
    verbosity: 0,
  }).promise;
  try {
    const page = await doc.getPage(1);
    const natural = page.getViewport({ scale: 1 });
    const longest = Math.max(natural.width, natural.height);
    if (!(longest > 0)) return null;
    const viewport = page.getViewport({ scale: Math.min(size / longest, 4) });
    const { canvas, context } = doc.canvasFactory.create(
      Math.max(1, Math.ceil(viewport.width)),
      Math.max(1, Math.ceil(viewport.height)),
    );
    await page.render({ canvasContext: context, canvas, viewport }).promise;
    return canvas.toBuffer('image/png');
  } finally {
    await doc.destroy();
  }
}

render().then(
  (png) => parentPort.postMessage(png ? { png } : { png: null }),
  () => parentPort.postMessage({ png: null }),
);
