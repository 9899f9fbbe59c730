/**
 * Strict base64 (the standard alphabet, padded, as `BASE64` in put-chunk.ts
 * accepts it) decoded from the bytes of its text, without making it a string:
 * a chunk is up to 512,000 characters, and a string that size lives in V8's
 * large-object space until a full GC. Answers null when the text is not valid.
 */
const VALUE = new Int16Array(256).fill(-1);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries()) {
  VALUE[c.charCodeAt(0)] = i;
}
const PAD = 0x3d;

/** a piece of text decoded natively at a time: a multiple of 4, and a short string (young generation, not large-object space) */
const PIECE = 64 * 1024;

/**
 * The decoded bytes, in `into` when it is large enough (a reused buffer), else in
 * a new one. Node's decoder (native, about 5× the JS loop below) is lenient: it
 * skips or maps characters outside the alphabet. So each piece is decoded
 * natively and encoded back; only when that differs from the text (invalid
 * characters, misplaced padding, non-zero trailing bits) does the strict JS
 * decoder give the verdict.
 */
export function decodeBase64Bytes(text: Uint8Array, into?: Buffer): Buffer | null {
  const n = text.length;
  if (n % 4 !== 0) return null;
  const pad = n === 0 ? 0 : text[n - 1] === PAD ? (text[n - 2] === PAD ? 2 : 1) : 0;
  const size = (n / 4) * 3 - pad;
  const out = into && into.length >= size ? into.subarray(0, size) : Buffer.allocUnsafe(size);
  const src = Buffer.isBuffer(text) ? text : Buffer.from(text.buffer, text.byteOffset, n);
  let o = 0;
  for (let i = 0; i < n; i += PIECE) {
    const piece = src.toString('latin1', i, Math.min(n, i + PIECE));
    const written = out.write(piece, o, 'base64');
    if (out.toString('base64', o, o + written) !== piece) return strictDecode(text, out);
    o += written;
  }
  return o === size ? out : strictDecode(text, out);
}

/** the strict decoder, byte by byte: null when the text is not canonical-alphabet base64 */
function strictDecode(text: Uint8Array, into: Buffer): Buffer | null {
  const n = text.length;
  const pad = n === 0 ? 0 : text[n - 1] === PAD ? (text[n - 2] === PAD ? 2 : 1) : 0;
  const out = into.subarray(0, (n / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < n; i += 4) {
    const a = VALUE[text[i] as number] as number;
    const b = VALUE[text[i + 1] as number] as number;
    const last = i + 4 === n;
    const c = last && pad === 2 ? 0 : (VALUE[text[i + 2] as number] as number);
    const d = last && pad >= 1 ? 0 : (VALUE[text[i + 3] as number] as number);
    if ((a | b | c | d) < 0) return null;
    const v = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = v >> 16;
    if (o < out.length) out[o++] = (v >> 8) & 0xff;
    if (o < out.length) out[o++] = v & 0xff;
  }
  return out;
}
