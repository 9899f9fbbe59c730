// The expensive jobs themselves: a thumbnail of an image (sharp), of a PDF's first
// page (pdf.js), an invoice as a PDF (pdf-lib). They run in a render process
// (render-worker.mjs, started by render-pool.ts) with its own memory limit and a
// time limit; the service calls them only through the pool. Each checks what it
// would decode against its limits first, from the headers, and refuses instead
// of decoding. Plain JavaScript: a render process runs without a TypeScript loader.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** @typedef {{ ok: true, bytes: Uint8Array } | { ok: false, reason: 'refused' | 'failed', message: string }} JobResult */

/** @param {string} message @returns {JobResult} */
const refused = (message) => ({ ok: false, reason: 'refused', message });

/** @param {{ kind: string } & Record<string, unknown>} job @returns {Promise<JobResult>} */
export async function runJob(job) {
  try {
    switch (job.kind) {
      case 'image-thumbnail':
        return await imageThumbnail(/** @type {any} */ (job));
      case 'pdf-thumbnail':
        return await pdfThumbnail(/** @type {any} */ (job));
      case 'invoice-pdf':
        return await invoicePdf(/** @type {any} */ (job));
      default:
        return { ok: false, reason: 'failed', message: `no job ${job.kind}` };
    }
  } catch (err) {
    return { ok: false, reason: 'failed', message: err instanceof Error ? err.message : String(err) };
  }
}

// each module is imported once: an import() per job costs a resolution each time
/** @type {Promise<typeof import('pdfjs-dist/legacy/build/pdf.mjs')> | null} */
let pdfjsModule = null;
const loadPdfjs = () => (pdfjsModule ??= import('pdfjs-dist/legacy/build/pdf.mjs'));
/** @type {Promise<typeof import('pdf-lib')> | null} */
let pdfLibModule = null;
const loadPdfLib = () => (pdfLibModule ??= import('pdf-lib'));

/** Loads the renderers ahead of the first job; a job that comes sooner waits for the same loads. */
export function warm() {
  void loadSharp().catch(() => {});
  void loadPdfjs().catch(() => {});
  void loadPdfLib().catch(() => {});
}

/** @type {Promise<typeof import('sharp')> | null} */
let sharpModule = null;
function loadSharp() {
  sharpModule ??= import('sharp').then((m) => {
    // each image is made once and cached on disk: libvips' operation cache would only hold memory
    m.default.cache(false);
    return m.default;
  });
  return sharpModule;
}

/**
 * An image, at most `size` pixels on its longest side, as PNG. Its header is read
 * first (no pixel decoded) and an image of more than `maxPixels` is refused.
 * @param {{ bytes: Uint8Array, size: number, maxPixels: number }} job
 */
async function imageThumbnail({ bytes, size, maxPixels }) {
  const sharp = await loadSharp();
  const meta = await sharp(bytes, { failOn: 'none', limitInputPixels: false })
    .metadata()
    .catch(() => null);
  if (!meta?.width || !meta.height) return refused('the image header cannot be read');
  if (meta.width * meta.height > maxPixels) return refused(`the image is ${meta.width} × ${meta.height} pixels`);
  const png = await sharp(bytes, { failOn: 'none', limitInputPixels: maxPixels })
    .rotate()
    .resize(size, size, { fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer();
  return { ok: true, bytes: png };
}

/** @type {string | null} */
let fontsDir = null;

/** `/Name Do` in a content stream: a form or an image drawn */
const DRAW = /\/([^\s/[\]()<>{}%]+)\s*Do(?![^\s/[\]()<>{}%])/g;

/**
 * The first page of a PDF as a PNG, at most `size` pixels on its longest side,
 * rendered by pdf.js on its Skia canvas (@napi-rs/canvas). No script runs (eval
 * off, no XFA), no font is fetched (pdf.js's standard fonts). Unless `check` is
 * false (the pool's own tests), the page is checked first (checkPdfPage); pdf.js
 * also skips any image past `maxPixels` on its own.
 * @param {{ bytes: Uint8Array, size: number, maxPixels: number, maxPaints: number, maxContentBytes: number, check?: boolean }} job
 */
async function pdfThumbnail({ bytes, size, maxPixels, maxPaints, maxContentBytes, check = true }) {
  if (check) {
    const verdict = await checkPdfPage(bytes, { maxPixels, maxPaints, maxContentBytes });
    if (verdict) return refused(verdict);
  }
  const { getDocument } = await loadPdfjs();
  fontsDir ??= `${path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;
  const doc = await getDocument({
    // pdf.js may take the buffer over: it gets a copy, the check above keeps its own
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    enableXfa: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl: fontsDir,
    maxImageSize: maxPixels,
    verbosity: 0,
  }).promise;
  try {
    const page = await doc.getPage(1);
    const natural = page.getViewport({ scale: 1 });
    const longest = Math.max(natural.width, natural.height);
    if (!(longest > 0)) return refused('the page has no size');
    const viewport = page.getViewport({ scale: Math.min(size / longest, 4) });
    const { canvas, context } = doc.canvasFactory.create(
      Math.max(1, Math.ceil(viewport.width)),
      Math.max(1, Math.ceil(viewport.height)),
    );
    await page.render({ canvasContext: context, canvas, viewport }).promise;
    return { ok: true, bytes: canvas.toBuffer('image/png') };
  } finally {
    await doc.destroy();
  }
}

/**
 * What the first page of a PDF would cost, from its structure, before pdf.js
 * decodes anything: the declared width × height of every image it draws (and of
 * its soft mask), through forms and tiling patterns, against `maxPixels`; how many
 * times forms are drawn, nesting multiplied out (a form drawing a form 8 times,
 * 12 levels deep, is 8^12 paints), against `maxPaints`; a form that draws itself.
 * Content streams are decoded up to `maxContentBytes` in all. Answers why the
 * page is refused, or null. A file pdf-lib cannot read, or whose streams it
 * cannot decode (encryption, an unusual filter), is left to pdf.js within the
 * process's memory and time limits.
 * @param {Uint8Array} bytes
 * @param {{ maxPixels: number, maxPaints: number, maxContentBytes: number }} limits
 * @returns {Promise<string | null>}
 */
export async function checkPdfPage(bytes, { maxPixels, maxPaints, maxContentBytes }) {
  const lib = await loadPdfLib();
  const { PDFDocument, PDFName, PDFDict, PDFArray, PDFRawStream, PDFNumber, ParseSpeeds, decodePDFRawStream } = lib;
  let doc;
  try {
    doc = await PDFDocument.load(bytes, {
      ignoreEncryption: true,
      throwOnInvalidObject: false,
      updateMetadata: false,
      // all objects in one go: the default yields to the event loop every 100 objects (a timer each)
      parseSpeed: ParseSpeeds.Fastest,
    });
  } catch {
    return null;
  }
  if (doc.isEncrypted) return null;
  const page = doc.getPages()[0];
  if (!page) return null;
  const N = (/** @type {string} */ name) => PDFName.of(name);
  let decoded = 0;

  class Refusal extends Error {}
  class Undecodable extends Error {}

  /** the names a content stream draws with Do, and how often, read as text in pieces */
  const drawsOf = (/** @type {any} */ stream) => {
    /** @type {Map<string, number>} */
    const draws = new Map();
    let source;
    try {
      source = decodePDFRawStream(stream);
    } catch {
      throw new Undecodable();
    }
    let carry = '';
    for (;;) {
      const piece = source.getBytes(64 * 1024);
      const last = piece.length === 0;
      decoded += piece.length;
      if (decoded > maxContentBytes) throw new Refusal(`the page's content is larger than ${maxContentBytes} bytes decoded`);
      const text = carry + Buffer.from(piece.buffer, piece.byteOffset, piece.length).toString('latin1');
      // a draw that may go on in the next piece is counted with it: the tail is read again, and
      // no tail of a counted draw can count twice (it has no leading slash)
      const boundary = last ? text.length : Math.max(0, text.length - 4096);
      // text inside strings or inline images may look like a draw: counting it too only errs on the safe side
      for (const m of text.matchAll(DRAW)) {
        if (m.index >= boundary) break;
        const name = (m[1] ?? '').replace(/#([0-9a-fA-F]{2})/g, (_, h) => String.fromCharCode(Number.parseInt(h, 16)));
        draws.set(name, (draws.get(name) ?? 0) + 1);
      }
      if (last) break;
      carry = text.slice(boundary);
    }
    return draws;
  };

  const checkImage = (/** @type {any} */ dict, /** @type {string} */ what) => {
    const w = dict.lookup(N('Width'));
    const h = dict.lookup(N('Height'));
    const width = w instanceof PDFNumber ? w.asNumber() : 0;
    const height = h instanceof PDFNumber ? h.asNumber() : 0;
    if (width * height > maxPixels) throw new Refusal(`${what} is ${width} × ${height} pixels`);
    for (const key of ['SMask', 'Mask']) {
      const mask = dict.lookup(N(key));
      if (mask instanceof PDFRawStream) checkImage(mask.dict, `the mask of ${what}`);
    }
  };

  /** @type {Map<unknown, number>} */
  const paintsOfForm = new Map();
  /** @type {Set<unknown>} */
  const drawing = new Set();

  /** paints of a content stream with its resources: each draw, and what a drawn form paints, multiplied out */
  const paintsOf = (/** @type {Map<string, number>} */ draws, /** @type {any} */ resources, /** @type {number} */ depth) => {
    if (depth > 64) throw new Refusal('forms nest more than 64 levels');
    const xobjects = resources instanceof PDFDict ? resources.lookup(N('XObject')) : undefined;
    let total = 0;
    for (const [name, times] of draws) {
      total += times;
      const target = xobjects instanceof PDFDict ? xobjects.lookup(N(name)) : undefined;
      if (target instanceof PDFRawStream) {
        const subtype = target.dict.lookup(N('Subtype'));
        if (subtype === N('Image')) checkImage(target.dict, `the image /${name}`);
        else if (subtype === N('Form')) total += times * formPaints(target, resources, depth + 1);
      }
      if (total > maxPaints) throw new Refusal(`the page draws forms more than ${maxPaints} times`);
    }
    return total + patternPaints(resources, depth);
  };

  /** what one draw of a form paints (its own resources, else those of where it is drawn) */
  const formPaints = (/** @type {any} */ form, /** @type {any} */ outer, /** @type {number} */ depth) => {
    const known = paintsOfForm.get(form);
    if (known !== undefined) return known;
    if (drawing.has(form)) throw new Refusal('a form draws itself');
    drawing.add(form);
    const own = form.dict.lookup(N('Resources'));
    const n = paintsOf(drawsOf(form), own instanceof PDFDict ? own : outer, depth);
    drawing.delete(form);
    paintsOfForm.set(form, n);
    return n;
  };

  /** tiling patterns are content streams too: what they draw is counted once each */
  const patternPaints = (/** @type {any} */ resources, /** @type {number} */ depth) => {
    const patterns = resources instanceof PDFDict ? resources.lookup(N('Pattern')) : undefined;
    if (!(patterns instanceof PDFDict)) return 0;
    let total = 0;
    for (const [, ref] of patterns.entries()) {
      const pattern = doc.context.lookup(ref);
      if (pattern instanceof PDFRawStream) total += formPaints(pattern, resources, depth + 1);
    }
    return total;
  };

  try {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
    /** @type {Map<string, number>} */
    const draws = new Map();
    for (const s of streams) {
      if (!(s instanceof PDFRawStream)) continue;
      for (const [name, n] of drawsOf(s)) draws.set(name, (draws.get(name) ?? 0) + n);
    }
    paintsOf(draws, page.node.Resources(), 0);
    return null;
  } catch (err) {
    if (err instanceof Refusal) return err.message;
    // Undecodable, or a structure pdf-lib reads otherwise than pdf.js: left to pdf.js within the limits
    return null;
  }
}

/** @type {Promise<(data: unknown) => Promise<Uint8Array>> | null} */
let invoiceLayout = null;

/**
 * An invoice as a PDF (the layout is invoices/pdf/render-invoice-pdf.ts, loaded
 * through tsx's loader at the first invoice a process renders).
 * @param {{ data: unknown }} job
 */
async function invoicePdf({ data }) {
  invoiceLayout ??= import('tsx/esm/api').then(async ({ tsImport }) => {
    const mod = await tsImport('../invoices/pdf/render-invoice-pdf.ts', import.meta.url);
    return mod.renderInvoicePdf;
  });
  const render = await invoiceLayout;
  return { ok: true, bytes: await render(data) };
}
