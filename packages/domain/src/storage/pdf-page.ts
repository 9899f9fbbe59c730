import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The first page of a PDF as a PNG, at most `size` pixels on its longest side:
 * rendered by pdf.js (pdfjs-dist, Mozilla's PDF renderer) onto a Skia canvas
 * (@napi-rs/canvas, which pdf.js uses in Node). No script in the PDF runs
 * (eval off, no scripting), and no font is fetched (pdf.js's own standard fonts).
 * Null when the file cannot be rendered: the caller answers the type icon.
 */
export const PDF_RENDER_MAX_BYTES = 20 * 1024 * 1024;

interface CanvasLike {
  toBuffer(mime: 'image/png'): Buffer;
}
interface CanvasFactoryLike {
  create(width: number, height: number): { canvas: CanvasLike; context: unknown };
}

const require = createRequire(import.meta.url);
let fontsDir: string | null = null;
function standardFonts(): string {
  fontsDir ??= `${path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;
  return fontsDir;
}

export async function renderPdfFirstPage(bytes: Uint8Array, size: number): Promise<Buffer | null> {
  try {
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await pdfjs.getDocument({
      data: bytes,
      isEvalSupported: false,
      enableXfa: false,
      disableFontFace: true,
      useSystemFonts: false,
      standardFontDataUrl: standardFonts(),
      verbosity: 0,
    }).promise;
    try {
      const page = await doc.getPage(1);
      const natural = page.getViewport({ scale: 1 });
      const longest = Math.max(natural.width, natural.height);
      if (!(longest > 0)) return null;
      const viewport = page.getViewport({ scale: Math.min(size / longest, 4) });
      const factory = doc.canvasFactory as CanvasFactoryLike;
      const { canvas, context } = factory.create(Math.max(1, Math.ceil(viewport.width)), Math.max(1, Math.ceil(viewport.height)));
      await page.render({ canvasContext: context as never, canvas: canvas as never, viewport }).promise;
      return canvas.toBuffer('image/png');
    } finally {
      await doc.destroy();
    }
  } catch {
    return null;
  }
}
