import path from 'node:path'

/*
 * The CJK font of every PDF the server writes, apart from pdfkit itself: loading pdfkit (and its
 * font engine) costs the server memory at start, so the modules that write PDFs load on first use.
 */

/** The font inside a collection (.ttc) pdfkit should take, by file name. */
const COLLECTION_FONTS: Record<string, string> = {
  'NotoSansCJK-Regular.ttc': 'NotoSansCJKsc-Regular',
  'wqy-microhei.ttc': 'WenQuanYiMicroHei',
  'wqy-zenhei.ttc': 'WenQuanYiZenHei',
  'PingFang.ttc': 'PingFangSC-Regular',
}

/**
 * Makes `fontPath` (config.pdfFont) the document's font, choosing the Simplified Chinese face of a
 * collection. Shared by every PDF the server writes (opinions, the data export's reports).
 */
export function setCjkFont(doc: PDFKit.PDFDocument, fontPath: string): void {
  doc.registerFont('cjk', fontPath, COLLECTION_FONTS[path.basename(fontPath)])
  doc.font('cjk')
}
