import Taro from '@tarojs/taro'
import { taroTransport } from '../http'
import { fetchFrame, fetchSeriesMetadata, renderedPath } from '../viewer'
import { createHarness, ok } from './http-fakes'

const MULTIPART = 'multipart/related; type="application/octet-stream"; boundary=abc'

describe('viewer service (WADO-RS through the request wrapper)', () => {
  it('asks for a frame as raw bytes with the bearer token and answers them with the content type', async () => {
    const h = createHarness({}, { token: 'tok' })
    const bytes = new Uint8Array([1, 2, 3]).buffer
    h.reply({ statusCode: 200, data: bytes, header: { 'content-type': MULTIPART } })
    const answer = await fetchFrame('1.2', '1.2.3', '1.2.3.4', 2, h.http)
    expect(answer).toEqual({ body: bytes, contentType: MULTIPART })
    const sent = h.sent[0]!
    expect(sent.responseType).toBe('arraybuffer')
    expect(sent.url).toMatch(
      /\/dicomweb\/studies\/1\.2\/series\/1\.2\.3\/instances\/1\.2\.3\.4\/frames\/2$/,
    )
    expect(sent.header.Authorization).toBe('Bearer tok')
    expect(sent.header.Accept).toContain('application/octet-stream')
  })

  it('rejects a missing frame quietly: no toast, no loading', async () => {
    const h = createHarness({}, { token: 'tok' })
    h.reply(ok({ message: '未找到' }, 404))
    await expect(fetchFrame('1', '2', '3', 1, h.http)).rejects.toThrow()
    expect(h.toasts()).toEqual([])
  })

  it('reads series metadata as DICOM JSON objects', async () => {
    const h = createHarness({}, { token: 'tok' })
    h.reply(ok([{ '00080018': { vr: 'UI', Value: ['1'] } }, null]))
    const metadata = await fetchSeriesMetadata('1', '2', h.http)
    expect(metadata).toEqual([{ '00080018': { vr: 'UI', Value: ['1'] } }])
    expect(h.sent[0]!.url).toMatch(/\/dicomweb\/studies\/1\/series\/2\/metadata$/)
    expect(h.sent[0]!.responseType).toBeUndefined()
  })

  it('names the rendered frame of an instance', () => {
    expect(renderedPath('1', '2', '3', 4)).toBe(
      '/dicomweb/studies/1/series/2/instances/3/frames/4/rendered',
    )
  })

  it('the Taro transport passes arraybuffer on and skips the JSON parse', async () => {
    const request = jest
      .spyOn(Taro, 'request')
      .mockResolvedValue({ statusCode: 200, data: new ArrayBuffer(1), header: {} } as never)
    await taroTransport.request({
      url: '/x',
      method: 'GET',
      header: {},
      timeout: 1000,
      responseType: 'arraybuffer',
    })
    expect(request.mock.calls[0]![0]).toMatchObject({ responseType: 'arraybuffer' })
    expect(request.mock.calls[0]![0]!.dataType).not.toBe('json')
    await taroTransport.request({ url: '/x', method: 'GET', header: {}, timeout: 1000 })
    expect(request.mock.calls[1]![0]).toMatchObject({ dataType: 'json' })
    expect(request.mock.calls[1]![0]).not.toHaveProperty('responseType')
    request.mockRestore()
  })
})
