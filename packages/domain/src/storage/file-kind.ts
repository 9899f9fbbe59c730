/**
 * File kinds by extension or content type: the icon of fileicon/getfileicon and
 * the thumbnail of a file that is not an image.
 */
export const FILE_KINDS = ['pdf', 'image', 'text', 'spreadsheet', 'presentation', 'archive', 'audio', 'video', 'file'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

const BY_EXTENSION: Record<string, FileKind> = {
  pdf: 'pdf',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  webp: 'image',
  tif: 'image',
  tiff: 'image',
  heic: 'image',
  avif: 'image',
  svg: 'image',
  bmp: 'image',
  txt: 'text',
  md: 'text',
  doc: 'text',
  docx: 'text',
  odt: 'text',
  rtf: 'text',
  csv: 'spreadsheet',
  xls: 'spreadsheet',
  xlsx: 'spreadsheet',
  ods: 'spreadsheet',
  ppt: 'presentation',
  pptx: 'presentation',
  odp: 'presentation',
  zip: 'archive',
  gz: 'archive',
  tgz: 'archive',
  '7z': 'archive',
  rar: 'archive',
  tar: 'archive',
  mp3: 'audio',
  wav: 'audio',
  ogg: 'audio',
  flac: 'audio',
  m4a: 'audio',
  mp4: 'video',
  mov: 'video',
  webm: 'video',
  mkv: 'video',
  avi: 'video',
};

/** The extension of a file name, lower case, without the dot ('' when none). */
export function extensionOf(fileName: string): string {
  const i = fileName.lastIndexOf('.');
  return i <= 0 ? '' : fileName.slice(i + 1).toLowerCase();
}

/** The kind of a file from its content type, its name, or an extension given alone. */
export function fileKind(input: { contentType?: string | null; fileName?: string | null; extension?: string | null }): FileKind {
  const type = (input.contentType ?? '').toLowerCase().split(';')[0]?.trim() ?? '';
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('text/csv') || type.includes('spreadsheet') || type.includes('excel')) return 'spreadsheet';
  if (type.includes('presentation') || type.includes('powerpoint')) return 'presentation';
  if (type.includes('zip') || type.includes('compressed') || type.includes('x-tar') || type.includes('gzip')) return 'archive';
  if (type.startsWith('text/') || type.includes('word') || type.includes('opendocument.text')) return 'text';
  const ext = (input.extension ?? (input.fileName ? extensionOf(input.fileName) : '')).toLowerCase().replace(/^\./, '');
  return BY_EXTENSION[ext] ?? 'file';
}

const LOOK: Record<FileKind, { label: string; color: string }> = {
  pdf: { label: 'PDF', color: '#c62828' },
  image: { label: 'IMG', color: '#2e7d32' },
  text: { label: 'DOC', color: '#1565c0' },
  spreadsheet: { label: 'XLS', color: '#1b5e20' },
  presentation: { label: 'PPT', color: '#e65100' },
  archive: { label: 'ZIP', color: '#6d4c41' },
  audio: { label: 'AUD', color: '#6a1b9a' },
  video: { label: 'VID', color: '#ad1457' },
  file: { label: 'FILE', color: '#546e7a' },
};

/** The icon of a kind: a page with a folded corner and the kind's label, as SVG (no script, no external reference). */
export function fileIconSvg(kind: FileKind, size = 64): string {
  const { label, color } = LOOK[kind];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 64 64" role="img" aria-label="${label} file">`,
    `<path d="M14 4h26l12 12v44H14z" fill="#fff" stroke="${color}" stroke-width="3"/>`,
    `<path d="M40 4v12h12" fill="none" stroke="${color}" stroke-width="3"/>`,
    `<rect x="8" y="34" width="48" height="18" rx="3" fill="${color}"/>`,
    `<text x="32" y="47.5" font-family="sans-serif" font-size="12" font-weight="bold" fill="#fff" text-anchor="middle">${label}</text>`,
    '</svg>',
  ].join('');
}
