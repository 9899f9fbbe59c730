import type { PDFFont } from 'pdf-lib';

/** What an invoice document shows: who sends it, to whom, the lines, VAT and totals, and the due date. */
export interface InvoicePdfData {
  title: 'Invoice' | 'Credit invoice';
  invoiceNumber: string;
  invoiceDate: string;
  dueDate: string | null;
  company: { name: string; address: string[]; vatNumber: string | null; bankAccount: string | null };
  debtor: { name: string; address: string[] };
  subject: string | null;
  reference: string | null;
  lines: { description: string; quantity: string; price: string; amount: string; vatPercentage: string }[];
  vatByClass: { percentage: string; base: string; vat: string }[];
  totalExcl: string;
  totalVat: string;
  totalIncl: string;
  creditOf: string | null;
}

/** Helvetica speaks WinAnsi only: other characters are replaced, never a failed render. */
function safe(font: PDFFont, text: string): string {
  let out = '';
  for (const ch of text) {
    try {
      font.encodeText(ch);
      out += ch;
    } catch {
      out += '?';
    }
  }
  return out;
}

const money = (v: string) => `EUR ${v}`;
/** 21.0000 → 21, 6.5000 → 6.5 */
const percent = (v: string) => (v.includes('.') ? v.replace(/\.?0+$/, '') : v);

/**
 * Renders the invoice as a PDF with pdf-lib (A4, standard fonts: no font files to ship). Called in a
 * render process (rendering/bounded.ts, renderInvoicePdfBounded), never in the service's own.
 */
export async function renderInvoicePdf(d: InvoicePdfData): Promise<Uint8Array> {
  // loaded at the first invoice rendered, not at every start (about 0.12 s of it)
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  pdf.setTitle(`${d.title} ${d.invoiceNumber}`);
  pdf.setSubject(`${d.title} ${d.invoiceNumber} of ${d.company.name}`);
  pdf.setCreator('business-operations invoicing');
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let page = pdf.addPage([595.28, 841.89]);
  let y = 800;
  const left = 50;
  const write = (text: string, x: number, size = 10, font = regular) => {
    page.drawText(safe(font, text), { x, y, size, font });
  };
  const right = (text: string, edge: number, size = 10, font = regular) => {
    const t = safe(font, text);
    page.drawText(t, { x: edge - font.widthOfTextAtSize(t, size), y, size, font });
  };
  const next = (step = 14) => {
    y -= step;
    if (y < 60) {
      page = pdf.addPage([595.28, 841.89]);
      y = 800;
    }
  };

  write(d.company.name, left, 14, bold);
  next(16);
  for (const line of d.company.address) {
    write(line, left);
    next();
  }
  if (d.company.vatNumber) {
    write(`VAT number: ${d.company.vatNumber}`, left);
    next();
  }
  next(10);
  write(d.title, left, 18, bold);
  next(24);
  write(`${d.title} number: ${d.invoiceNumber}`, left, 11, bold);
  next();
  write(`Invoice date: ${d.invoiceDate}`, left);
  next();
  if (d.dueDate) {
    write(`Due date: ${d.dueDate}`, left);
    next();
  }
  if (d.creditOf) {
    write(`Credits invoice: ${d.creditOf}`, left);
    next();
  }
  if (d.reference) {
    write(`Reference: ${d.reference}`, left);
    next();
  }
  next(8);
  write('Bill to:', left, 10, bold);
  next();
  write(d.debtor.name, left);
  next();
  for (const line of d.debtor.address) {
    write(line, left);
    next();
  }
  if (d.subject) {
    next(6);
    write(d.subject, left, 11, bold);
    next();
  }
  next(10);
  write('Description', left, 10, bold);
  right('Quantity', 330, 10, bold);
  right('Price', 410, 10, bold);
  right('VAT %', 460, 10, bold);
  right('Amount', 545, 10, bold);
  next(16);
  for (const l of d.lines) {
    write(l.description.length > 55 ? `${l.description.slice(0, 52)}...` : l.description, left);
    right(l.quantity, 330);
    right(l.price, 410);
    right(percent(l.vatPercentage), 460);
    right(l.amount, 545);
    next();
  }
  next(8);
  right(`Total excluding VAT: ${money(d.totalExcl)}`, 545);
  next();
  for (const v of d.vatByClass) {
    right(`VAT ${percent(v.percentage)}% over ${money(v.base)}: ${money(v.vat)}`, 545);
    next();
  }
  right(`Total VAT: ${money(d.totalVat)}`, 545);
  next();
  right(`Total including VAT: ${money(d.totalIncl)}`, 545, 11, bold);
  next(24);
  if (d.dueDate && d.company.bankAccount) {
    write(`Please pay ${money(d.totalIncl)} before ${d.dueDate} to ${d.company.bankAccount}, stating ${d.invoiceNumber}.`, left);
    next();
  }
  return pdf.save();
}
