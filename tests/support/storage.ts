import { readdirSync } from 'node:fs';
import { request } from 'node:https';
import path from 'node:path';
import sharp from 'sharp';
import type { HttpResponse } from './http.js';
import type { ApiClient } from './service.js';

/**
 * Sends raw bytes to a v2 path with the client's token: with Content-Length, or
 * (chunked: true) in pieces with Transfer-Encoding: chunked and no length.
 */
export function sendRaw(
  client: ApiClient,
  method: string,
  pathAndQuery: string,
  body: Buffer,
  opts: { headers?: Record<string, string>; chunked?: boolean } = {},
): Promise<HttpResponse> {
  const token = client.token;
  const headers: Record<string, string> = {
    host: client.host,
    ...(token ? { 'authentication-key': token.key, 'authentication-secret': token.secret } : {}),
    ...opts.headers,
  };
  if (!opts.chunked) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: client.port,
        method,
        path: `/api/v2${pathAndQuery}`,
        headers,
        rejectUnauthorized: false,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const text = raw.toString('utf8');
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
        });
      },
    );
    // a refusal may close the connection before every byte is sent
    req.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err),
    );
    if (opts.chunked) {
      for (let off = 0; off < body.length; off += 64 * 1024) req.write(body.subarray(off, off + 64 * 1024));
    } else req.write(body);
    req.end();
  });
}

/** GET a v2 path as bytes (the test http helper reads text). */
export function getBytes(
  client: ApiClient,
  pathAndQuery: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }> {
  const token = client.token;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: client.port,
        method,
        path: `/api/v2${pathAndQuery}`,
        headers: {
          host: client.host,
          ...(token ? { 'authentication-key': token.key, 'authentication-secret': token.secret } : {}),
          ...headers,
        },
        rejectUnauthorized: false,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Every file under a folder (recursively), as paths relative to it. */
export function filesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(path.relative(root, p));
    }
  };
  walk(root);
  return out.sort();
}

export function png(width: number, height: number, color = '#3366cc'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

export function jpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#aa5500' } })
    .jpeg()
    .toBuffer();
}

export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * A decompression bomb: a small valid PNG whose header claims width × height
 * pixels (the IHDR chunk rewritten, its CRC recomputed). Decoding it would
 * need gigabytes; reading its header needs 33 bytes.
 */
export async function pngBomb(width: number, height: number): Promise<Buffer> {
  const small = Buffer.from(await png(1, 1));
  small.writeUInt32BE(width, 16);
  small.writeUInt32BE(height, 20);
  small.writeUInt32BE(crc32(small.subarray(12, 29)), 29);
  return small;
}

/** A one-page PDF (US Letter) with a line of text and a blue rectangle at (72,500)-(272,600) in PDF points. */
export function onePagePdf(): Buffer {
  const content = 'BT /F1 24 Tf 72 720 Td (Hello PDF) Tj ET 0 0 1 rg 72 500 200 100 re f';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
