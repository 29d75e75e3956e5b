import { fireEvent, screen } from '@testing-library/react'
import type { ReportVersion } from '@/services/records'
import { ReportHistory } from '../components/report-sections'
import { renderComponent } from '../../../../jest/taro-render'

/* 修订记录: each earlier version says which key images it named (ReportVersion.keyImages). */

const version = (n: number, keyImages?: ReportVersion['keyImages']): ReportVersion => ({
  version: n,
  status: 'final',
  statusLabel: '已出报告',
  recordedAt: '2026-11-20T03:00:00.000Z',
  issuedAt: null,
  findings: `第 ${n} 版所见`,
  conclusion: null,
  performer: null,
  reviewer: null,
  ...(keyImages ? { keyImages } : {}),
})

const image = (instanceNumber: number, comment: string | null, frame = 1) => ({
  examId: 'x1',
  seriesUid: '1.2.3',
  sopInstanceUid: `1.2.3.${instanceNumber}`,
  frame,
  comment,
  instanceNumber,
  seriesDescription: '肺窗 5mm',
})

describe('ReportHistory', () => {
  it('lists what each version named as key images, with the report’s words', async () => {
    const shown = await renderComponent(
      <ReportHistory
        history={[
          version(1, [image(7, '右肺上叶结节，最大层面'), image(12, null, 3)]),
          version(2, []),
          version(3),
        ]}
      />,
    )
    for (const toggle of screen.getAllByText('展开')) fireEvent.click(toggle)
    const text = shown.container.textContent ?? ''
    expect(text).toContain('第 7 层 · 肺窗 5mm：右肺上叶结节，最大层面')
    expect(text).toContain('第 12 层 · 肺窗 5mm · 第 3 帧')
    // Named none: said so. Older servers (no keyImages) show no key image section at all.
    expect(screen.getAllByText('关键图像')).toHaveLength(2)
    expect(text).toContain('本版未标注关键图像')
  })
})
