import { screen } from '@testing-library/react'
import { ReportBody } from '../components/report-sections'
import { renderComponent } from '../../../../jest/taro-render'
import { reportDetail } from './fixtures'

/* A withdrawn report says how the hospital withdrew it, read from its FHIR status, never its label. */

describe('ReportBody', () => {
  it('says 作废 for a report entered in error, whatever its label reads', async () => {
    await renderComponent(
      <ReportBody report={reportDetail({ status: 'entered-in-error', statusLabel: '报告' })} />,
    )
    expect(screen.getByText('医院已作废该报告，请以医院的最新通知为准。')).toBeTruthy()
  })

  it('says 撤销 for a cancelled report, even labelled like a voided one', async () => {
    await renderComponent(
      <ReportBody report={reportDetail({ status: 'cancelled', statusLabel: '已作废' })} />,
    )
    expect(screen.getByText('医院已撤销该报告，请以医院的最新通知为准。')).toBeTruthy()
  })
})
