import { createDeflate } from 'node:zlib';

/** A PDF of numbered objects (1 is the catalog), with its cross-reference table; streams as raw bytes. */
function pdfOf(objects: (string | { dict: string; stream: Buffer })[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  const push = (b: Buffer) => {
    parts.push(b);
    length += b.length;
  };
  objects.forEach((o, i) => {
    offsets.push(length);
    if (typeof o === 'string') push(Buffer.from(`${i + 1} 0 obj\n${o}\nendobj\n`, 'latin1'));
    else {
      push(Buffer.from(`${i + 1} 0 obj\n${o.dict.replace(/>>\s*$/, ` /Length ${o.stream.length} >>`)}\nstream\n`, 'latin1'));
      push(o.stream);
      push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    }
  });
  const xref = length;
  let tail = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) tail += `${String(o).padStart(10, '0')} 00000 n \n`;
  tail += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  push(Buffer.from(tail, 'latin1'));
  return Buffer.concat(parts);
}

/** `total` zero bytes deflated (zlib format, as /FlateDecode wants), fed in pieces so that they never sit in memory whole. */
async function deflatedZeros(total: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  const piece = Buffer.alloc(4 * 1024 * 1024);
  for (let left = total; left > 0; left -= piece.length) {
    const chunk = left >= piece.length ? piece : piece.subarray(0, left);
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/**
 * A one-page PDF whose page shows one side × side RGB image (16,000 by default:
 * 768 MB of pixels, 3 GB or more once a renderer decodes and scales it), deflated
 * to some 750 kB on disk.
 */
export async function hugeImagePdf(side = 16_000): Promise<Buffer> {
  const pixels = await deflatedZeros(side * side * 3);
  const content = Buffer.from('q 612 0 0 792 0 0 cm /Im0 Do Q', 'latin1');
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /Im0 5 0 R >> >> >>',
    { dict: '<< >>', stream: content },
    {
      dict: `<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode >>`,
      stream: pixels,
    },
  ]);
}

/**
 * A one-page PDF of forms that draw forms: form 0 draws form 1 `fanOut` times,
 * form 1 draws form 2 as often, and so on `depth` levels down to a small filled
 * square; fanOut^depth squares to paint from a file of a few kilobytes.
 */
export function nestedFormsPdf(depth = 12, fanOut = 8): Buffer {
  const objects: (string | { dict: string; stream: Buffer })[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /F0 5 0 R >> >> >>',
    { dict: '<< >>', stream: Buffer.from('/F0 Do', 'latin1') },
  ];
  for (let level = 0; level < depth; level++) {
    const first = 5; // the object number of form 0
    const draws = Array.from({ length: fanOut }, (_, i) => `q 1 0 0 1 ${i} ${i} cm /F Do Q`).join('\n');
    const last = level === depth - 1;
    objects.push({
      dict: `<< /Type /XObject /Subtype /Form /BBox [0 0 612 792]${last ? '' : ` /Resources << /XObject << /F ${first + level + 1} 0 R >> >>`} >>`,
      stream: Buffer.from(last ? '0 0 1 rg 0 0 10 10 re f' : draws, 'latin1'),
    });
  }
  return pdfOf(objects);
}
