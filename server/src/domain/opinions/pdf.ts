import PDFDocument from 'pdfkit'
import QRCode from 'qrcode'
import { OPINION_PART_LABELS, OPINION_PARTS, type SignedOpinion } from '@contract/main/opinions'
import { chinaTime } from '../security-notices'
import { setCjkFont } from './cjk-font'

/*
 * The signed opinion as a PDF a patient saves or shows a doctor: the sentences under 影像所见,
 * 会诊意见 and 建议 (each pinned image named by its slice and measurement), which parts began as an
 * AI draft and whose, the addenda, the signer (name, title, hospital, time), and the verification
 * code with a QR code of the page that checks it on our server.
 *
 * Chinese needs a CJK font: config.pdfFont (PDF_FONT or a system font). pdfkit embeds only the
 * glyphs used, so a one-page opinion is about 60 KB.
 */

const DISCLAIMER =
  '本报告为健康咨询及影像解读意见，不能替代线下面诊，不作为诊断证明，不开具处方。请携带本报告与原始影像到线下医院就诊。'

function pinText(opinion: SignedOpinion, fieldId: string): string {
  const labels = opinion.pins.filter((pin) => pin.fieldId === fieldId).map((pin) => pin.label)
  return labels.length ? `［附图：${labels.join('；')}］` : ''
}

export async function opinionPdf(
  opinion: SignedOpinion,
  options: { fontPath: string; verifyUrl: string | null },
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 56, bottom: 56, left: 56, right: 56 },
    info: {
      Title: `影像会诊报告 ${opinion.verifyCode}`,
      Author: opinion.signer.name,
      Subject: opinion.template.title,
    },
  })
  const chunks: Buffer[] = []
  doc.on('data', (chunk: Buffer) => chunks.push(chunk))
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  setCjkFont(doc, options.fontPath)
  const width = doc.page.width - 112

  doc.fontSize(20).fillColor('#111').text('影像会诊报告', { align: 'center' })
  doc.moveDown(0.3)
  doc
    .fontSize(11)
    .fillColor('#555')
    .text(`${opinion.template.title} · 就诊人：${opinion.patientLabel}`, { align: 'center' })
  doc.moveDown(0.8)
  doc
    .moveTo(56, doc.y)
    .lineTo(56 + width, doc.y)
    .strokeColor('#ccc')
    .stroke()
  doc.moveDown(0.6)

  for (const part of OPINION_PARTS) {
    const sentences = opinion.sentences.filter((one) => one.part === part)
    if (sentences.length === 0) continue
    doc.fontSize(14).fillColor('#111').text(OPINION_PART_LABELS[part])
    doc.moveDown(0.3)
    for (const sentence of sentences) {
      const lead = sentence.label === OPINION_PART_LABELS[part] ? '' : `${sentence.label}：`
      const mark = sentence.fromAi ? '（起始于 AI 草稿，经专家审阅）' : ''
      doc
        .fontSize(11)
        .fillColor('#222')
        .text(`${lead}${sentence.text}${mark}${pinText(opinion, sentence.fieldId)}`, {
          width,
          lineGap: 3,
        })
      doc.moveDown(0.3)
    }
    doc.moveDown(0.5)
  }

  if (opinion.ai) {
    doc
      .fontSize(10)
      .fillColor('#8a5a00')
      .text(
        `AI 说明：标注“起始于 AI 草稿”的内容由 ${opinion.ai.provider.name}（${opinion.ai.provider.notice}）生成草稿，经签署专家审阅、修改后签署；AI 结果不单独作为诊断依据。`,
        { width },
      )
    doc.moveDown(0.6)
  }

  for (const [index, addendum] of opinion.addenda.entries()) {
    doc
      .fontSize(11)
      .fillColor('#111')
      .text(`补充说明 ${index + 1}（${chinaTime(new Date(addendum.signedAt))}）`)
    doc.fontSize(11).fillColor('#222').text(addendum.text, { width })
    doc.moveDown(0.5)
  }

  // The signature block, with the QR code of the verification page on its right.
  doc.moveDown(0.5)
  const top = doc.y
  const signer = opinion.signer
  doc
    .fontSize(11)
    .fillColor('#111')
    .text(`签署专家：${signer.name}  ${signer.titleLabel}`, 56, top, { width: width - 110 })
    .text(`执业机构：${signer.hospitalName}  ${signer.department}`, { width: width - 110 })
    .text(`签署时间：${chinaTime(new Date(opinion.signedAt))}（北京时间）`, { width: width - 110 })
    .text(`验证码：${opinion.verifyCode}`, { width: width - 110 })
    .fontSize(8)
    .fillColor('#777')
    .text(`内容摘要（SHA-256）：${opinion.contentHash}`, { width: width - 110 })
  if (options.verifyUrl) {
    doc.text(`核验：打开 ${options.verifyUrl} 或扫右侧二维码`, { width: width - 110 })
    const png = await QRCode.toBuffer(options.verifyUrl, { margin: 1, width: 200 })
    doc.image(png, 56 + width - 96, top, { width: 96 })
  }
  doc.y = Math.max(doc.y, top + 104)
  doc.moveDown(1)
  doc.fontSize(9).fillColor('#666').text(DISCLAIMER, 56, doc.y, { width })
  doc.end()
  return done
}
