/** Types of render-jobs.mjs (plain JavaScript, so that a render process needs no TypeScript loader). */
import type { InvoicePdfData } from '../invoices/pdf/render-invoice-pdf.js';

export interface ImageThumbnailJob {
  kind: 'image-thumbnail';
  bytes: Uint8Array;
  size: number;
  maxPixels: number;
}

export interface PdfThumbnailJob {
  kind: 'pdf-thumbnail';
  bytes: Uint8Array;
  size: number;
  maxPixels: number;
  maxPaints: number;
  maxContentBytes: number;
  /** false skips the structure check (the pool's own tests of its hard limits) */
  check?: boolean;
}

export interface InvoicePdfJob {
  kind: 'invoice-pdf';
  data: InvoicePdfData;
}

export type RenderJob = ImageThumbnailJob | PdfThumbnailJob | InvoicePdfJob;

export type JobResult = { ok: true; bytes: Uint8Array } | { ok: false; reason: 'refused' | 'failed'; message: string };

/** Runs a job in the calling process: only render processes, and benchmarks as a baseline, call it. */
export function runJob(job: RenderJob): Promise<JobResult>;

/** Loads the renderers ahead of the first job. */
export function warm(): void;

export function checkPdfPage(
  bytes: Uint8Array,
  limits: { maxPixels: number; maxPaints: number; maxContentBytes: number },
): Promise<string | null>;
