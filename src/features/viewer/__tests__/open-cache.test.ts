import {
  heldImageCount,
  heldImageSrc,
  holdAuthorisedImage,
} from '@/components/authorised-image/cache'
import { recordFirstPixels } from '../hooks/timing'
import { earlyPreviewPath, handedOverThumbnail } from '../hooks/use-viewer-data'

const THUMB = '/dicomweb/studies/1.2.3/series/1.2.3.4.1/instances/9/thumbnail'

/** Past the last holder's deferred release (it waits for the next task). */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0))

function downloader() {
  const releases: jest.Mock[] = []
  const download = jest.fn(async (url: string) => {
    const release = jest.fn()
    releases.push(release)
    return { src: `blob:${url}#${releases.length}`, release }
  })
  return { download, releases }
}

describe('shared authorised images', () => {
  it('holders of one address share one download and one URL, released with the last', async () => {
    const { download, releases } = downloader()
    const grid = holdAuthorisedImage(THUMB, download)
    const viewer = holdAuthorisedImage(THUMB, download)
    expect(download).toHaveBeenCalledTimes(1)
    const [a, b] = await Promise.all([grid.image, viewer.image])
    expect(a.src).toBe(b.src)
    expect(heldImageSrc(THUMB)).toBe(a.src)

    viewer.release()
    viewer.release()
    await nextTask()
    expect(releases[0]).not.toHaveBeenCalled()
    grid.release()
    await nextTask()
    expect(releases[0]).toHaveBeenCalledTimes(1)
    expect(heldImageSrc(THUMB)).toBeNull()
    expect(heldImageCount()).toBe(0)

    // Let go of entirely: the next holder downloads it again.
    const again = holdAuthorisedImage(THUMB, download)
    expect(download).toHaveBeenCalledTimes(2)
    again.release()
    await nextTask()
    expect(heldImageCount()).toBe(0)
  })

  it('a failed download is not kept', async () => {
    const failing = jest.fn().mockRejectedValue(new Error('offline'))
    const held = holdAuthorisedImage(THUMB, failing)
    await expect(held.image).rejects.toThrow('offline')
    const { download } = downloader()
    const retry = holdAuthorisedImage(THUMB, download)
    expect(download).toHaveBeenCalledTimes(1)
    await retry.image
    held.release()
    retry.release()
    await nextTask()
    expect(heldImageCount()).toBe(0)
  })

  it('a screen that unmounts while the next mounts with the same picture hands it over, not revoked', async () => {
    // 专家认证's 已驳回 → its form: the form's first render shows the held URL, then React runs
    // the summary's cleanup (its release) and the form's effect (its hold) in one flush.
    const { download, releases } = downloader()
    const summary = holdAuthorisedImage(THUMB, download)
    const { src } = await summary.image
    expect(heldImageSrc(THUMB)).toBe(src)
    summary.release()
    const form = holdAuthorisedImage(THUMB, download)
    await nextTask()
    expect(releases[0]).not.toHaveBeenCalled()
    expect(download).toHaveBeenCalledTimes(1)
    expect((await form.image).src).toBe(src)
    expect(heldImageSrc(THUMB)).toBe(src)

    form.release()
    await nextTask()
    expect(releases[0]).toHaveBeenCalledTimes(1)
    expect(heldImageCount()).toBe(0)
  })
})

describe('the opener’s handoff', () => {
  const request = { examId: 'x1', seriesUid: '1.2.3.4.1', studyUid: '1.2.3' }

  it('accepts only a thumbnail of the series asked for', () => {
    expect(handedOverThumbnail({ ...request, thumb: THUMB })).toBe(THUMB)
    for (const thumb of [
      '/dicomweb/studies/1.2.3/series/9.9/instances/9/thumbnail',
      '/dicomweb/studies/6.6/series/1.2.3.4.1/instances/9/thumbnail',
      '/dicomweb/studies/1.2.3/series/1.2.3.4.1/instances/9/frames/1',
      '/dicomweb/studies/1.2.3/series/1.2.3.4.1/instances//thumbnail',
      '/dicomweb/studies/1.2.3/series/1.2.3.4.1/instances/9/../../x/thumbnail',
      'https://elsewhere.example/thumbnail',
    ])
      expect(handedOverThumbnail({ ...request, thumb })).toBeNull()
    expect(handedOverThumbnail({ examId: 'x1', thumb: THUMB })).toBeNull()
  })

  it('knows the preview before the exam answers when handed the study', () => {
    expect(earlyPreviewPath({ ...request, thumb: THUMB })).toBe(
      '/dicomweb/studies/1.2.3/series/1.2.3.4.1/instances/9/rendered',
    )
    expect(earlyPreviewPath({ ...request, sop: '5', frame: 2 })).toBe(
      '/dicomweb/studies/1.2.3/series/1.2.3.4.1/instances/5/frames/2/rendered',
    )
    expect(earlyPreviewPath({ examId: 'x1', seriesUid: '1.2.3.4.1' })).toBeNull()
  })
})

describe('viewer-first-pixels', () => {
  it('is recorded once per opening, whoever paints first', () => {
    const measure = jest.fn()
    const perf = globalThis.performance as unknown as Record<string, unknown>
    const saved = perf.measure
    perf.measure = measure
    try {
      recordFirstPixels(12) // the page paints the handed-over thumbnail
      recordFirstPixels(12) // ImageViewer paints its preview: same opening, no second entry
      expect(measure).toHaveBeenCalledTimes(1)
      expect(measure).toHaveBeenCalledWith(
        'viewer-first-pixels',
        expect.objectContaining({ start: 12 }),
      )
      recordFirstPixels(40) // the next opening
      expect(measure).toHaveBeenCalledTimes(2)
    } finally {
      perf.measure = saved
    }
  })
})
