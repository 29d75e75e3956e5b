import PDFDocument from 'pdfkit'
import { setCjkFont } from '../opinions'
import { chinaTime } from '../security-notices'

/*
 * A report as a readable PDF (pdfkit; the system CJK font, found as the opinions' PDF finds it).
 * The document is itself a stream: it goes into the archive as it is written, never whole.
 */

export interface ReportPdfInput {
  title: string
  hospital: string | null
  patient: string
  exam: string
  examDate: string | null
  findings: string | null
  conclusion: string | null
  performer: string | null
  reviewer: string | null
  issuedAt: string | null
  /** 医院报告 or 个人报告 */
  source: string
}

export function reportPdf(input: ReportPdfInput, fontPath: string): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 56, bottom: 56, left: 56, right: 56 },
    info: { Title: input.title, Subject: input.exam },
  })
  setCjkFont(doc, fontPath)
  const width = doc.page.width - 112
  doc.fontSize(20).fillColor('#111').text(input.title, { align: 'center' })
  doc.moveDown(0.3)
  doc
    .fontSize(10)
    .fillColor('#666')
    .text(`${input.source}${input.hospital ? ` · ${input.hospital}` : ''}`, { align: 'center' })
  doc.moveDown(1)
  const line = (label: string, value: string | null) => {
    if (!value) return
    doc.fontSize(11).fillColor('#666').text(`${label}：`, { continued: true })
    doc.fillColor('#111').text(value, { width })
  }
  line('姓名', input.patient)
  line('检查', input.exam)
  line('检查日期', input.examDate)
  doc.moveDown(0.8)
  const part = (label: string, value: string | null) => {
    if (!value) return
    doc.fontSize(14).fillColor('#111').text(label)
    doc.moveDown(0.2)
    doc.fontSize(11).fillColor('#222').text(value, { width })
    doc.moveDown(0.8)
  }
  part('检查所见', input.findings)
  part('诊断意见', input.conclusion)
  line('报告医生', input.performer)
  line('审核医生', input.reviewer)
  const issued = input.issuedAt ? new Date(input.issuedAt) : null
  line(
    '报告时间',
    issued && !Number.isNaN(issued.getTime()) ? `${chinaTime(issued)}（北京时间）` : input.issuedAt,
  )
  doc.moveDown(1.5)
  doc
    .fontSize(9)
    .fillColor('#666')
    .text('本文件由医影通“导出我的数据”生成，内容与您在医影通中看到的报告一致。', { width })
  doc.end()
  return doc
}
