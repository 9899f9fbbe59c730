/** Limits of chunked uploads (README, Uploads). */
export interface UploadConfig {
  /** an upload with no chunk for this long (or done and never made a document) is removed with its bytes */
  expirySeconds: number;
  /** the largest file_size accepted */
  maxFileSize: number;
  /** storage: an image whose width × height is larger is refused before it is decoded (decompression bombs) */
  maxImagePixels?: number;
  /** storage: the largest logo, letter paper, avatar or signature accepted */
  maxAssetSize?: number;
}

export const DEFAULT_MAX_IMAGE_PIXELS = 50_000_000;
export const DEFAULT_MAX_ASSET_SIZE = 10 * 1024 ** 2;

/** 500 kB of base64 per chunk, as the contract says (counted as 500 KiB, in characters). */
export const MAX_CHUNK_ENCODED_LENGTH = 500 * 1024;

export const DEFAULT_UPLOAD_CONFIG: UploadConfig = { expirySeconds: 24 * 60 * 60, maxFileSize: 5 * 1024 ** 3 };

export function uploadConfigFromEnv(env: NodeJS.ProcessEnv = process.env): UploadConfig {
  const read = (name: string, fallback: number) => {
    const v = env[name];
    if (v === undefined || v === '') return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${v}"`);
    return n;
  };
  return {
    expirySeconds: read('UPLOAD_EXPIRY_SECONDS', DEFAULT_UPLOAD_CONFIG.expirySeconds),
    maxFileSize: read('UPLOAD_MAX_FILE_SIZE', DEFAULT_UPLOAD_CONFIG.maxFileSize),
    maxImagePixels: read('UPLOAD_MAX_IMAGE_PIXELS', DEFAULT_MAX_IMAGE_PIXELS),
    maxAssetSize: read('UPLOAD_MAX_ASSET_SIZE', DEFAULT_MAX_ASSET_SIZE),
  };
}
