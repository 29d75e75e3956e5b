import { renderHook, waitFor } from '@testing-library/react'
import type { ExamDetail } from '@/services/records'
import { useViewerData } from '../hooks/use-viewer-data'

/* The exam the viewer shows comes from the loader it is given (the person's own, or a grant's). */

describe('useViewerData', () => {
  it('asks the new loader when the loader changes (another grant), not only on a new exam', async () => {
    const fromA = jest.fn((): Promise<ExamDetail> => Promise.reject(new Error('授权 A')))
    const fromB = jest.fn((): Promise<ExamDetail> => Promise.reject(new Error('授权 B')))
    const { result, rerender } = renderHook(
      ({ load }: { load: (examId: string) => Promise<ExamDetail> }) =>
        useViewerData({ examId: 'e1' }, 0, load),
      { initialProps: { load: fromA } },
    )
    await waitFor(() => expect(result.current.status).toBe('error'))
    rerender({ load: fromB })
    await waitFor(() => expect(fromB).toHaveBeenCalledWith('e1'))
    expect(fromA).toHaveBeenCalledTimes(1)
  })
})
