import { FrameCache, parseInstanceMetadata, type ImageInfo, type PixelData } from '../core'
import {
  createFrameLoader,
  PREFETCH_AHEAD,
  PREFETCH_PARALLEL,
  slicesOf,
} from '../hooks/frame-loader'

const ROWS = 8
const COLUMNS = 8

function info(n: number, frames = 1): ImageInfo {
  const v = (vr: string, ...values: unknown[]) => ({ vr, Value: values })
  return parseInstanceMetadata({
    '00080018': v('UI', `1.9.${n}`),
    '0020000D': v('UI', '1.2'),
    '0020000E': v('UI', '1.2.3'),
    '00200013': v('IS', n),
    '00280008': v('IS', frames),
    '00280010': v('US', ROWS),
    '00280011': v('US', COLUMNS),
    '00280002': v('US', 1),
    '00280004': v('CS', 'MONOCHROME2'),
    '00280100': v('US', 8),
    '00280101': v('US', 8),
    '00280102': v('US', 7),
    '00280103': v('US', 0),
  })
}

function answer(fill: number) {
  const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0))
  const head = ascii('--b\r\nContent-Type: application/octet-stream\r\n\r\n')
  const tail = ascii('\r\n--b--\r\n')
  const body = new Uint8Array(head.length + ROWS * COLUMNS + tail.length)
  body.set(head)
  body.fill(fill, head.length, head.length + ROWS * COLUMNS)
  body.set(tail, head.length + ROWS * COLUMNS)
  return { body: body.buffer, contentType: 'multipart/related; boundary=b' }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('frame loader', () => {
  it('flattens multi-frame instances into slices in order', () => {
    const slices = slicesOf([info(1), info(2, 3)])
    expect(slices.map((s) => `${s.info.sopInstanceUid}#${s.frame}`)).toEqual([
      '1.9.1#1',
      '1.9.2#1',
      '1.9.2#2',
      '1.9.2#3',
    ])
  })

  it('fetches a slice once however many ask, decodes it and keeps it in the cache', async () => {
    const fetch = jest.fn(async (_i: ImageInfo, frame: number) => answer(frame * 10))
    const cache = new FrameCache<PixelData>(1 << 20)
    const loader = createFrameLoader(slicesOf([info(1, 3)]), cache, fetch)
    const [a, b] = await Promise.all([loader.load(1), loader.load(1)])
    expect(a).toBe(b)
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(fetch).toHaveBeenCalledWith(expect.objectContaining({ sopInstanceUid: '1.9.1' }), 2)
    expect(a[0]).toBe(20)
    expect(loader.peek(1)).toBe(a)
    await loader.load(1)
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('prefetches around the current slice a few at a time, and a new position replaces the queue', async () => {
    const pending: Array<() => void> = []
    const asked: number[] = []
    const fetch = jest.fn(
      (i: ImageInfo) =>
        new Promise<ReturnType<typeof answer>>((resolve) => {
          asked.push(Number(i.sopInstanceUid.split('.').pop()))
          pending.push(() => resolve(answer(1)))
        }),
    )
    const infos = Array.from({ length: 100 }, (_, n) => info(n + 1))
    const loader = createFrameLoader(slicesOf(infos), new FrameCache(1 << 20), fetch)
    loader.prefetch(50)
    expect(asked).toEqual([51, 52, 50].slice(0, PREFETCH_PARALLEL))
    loader.prefetch(10)
    pending.splice(0).forEach((done) => done())
    await tick()
    await tick()
    // After the first three, the queue is the new position's: 11, 12, 10 …
    expect(asked.slice(3, 6)).toEqual([11, 12, 10])
    while (pending.length > 0) {
      pending.splice(0).forEach((done) => done())
      await tick()
      await tick()
    }
    expect(new Set(asked.slice(3)).size).toBe(2 * PREFETCH_AHEAD + 1)
  })

  it('never holds more than the cache bound', async () => {
    const fetch = jest.fn(async () => answer(1))
    const cache = new FrameCache<PixelData>(ROWS * COLUMNS * 5)
    const loader = createFrameLoader(
      slicesOf(Array.from({ length: 40 }, (_, n) => info(n + 1))),
      cache,
      fetch,
    )
    for (let i = 0; i < 40; i += 1) await loader.load(i)
    expect(cache.bytes).toBeLessThanOrEqual(ROWS * COLUMNS * 5)
    expect(loader.peek(39)).toBeDefined()
    expect(loader.peek(0)).toBeUndefined()
  })
})
