import { z } from 'zod/mini'
import { defineEndpoint } from '@contract/endpoint'
import { getAgreement, getPolicyVersion } from '@contract/main/app'
import { ResponseDriftError, buildPath, createCallEndpoint } from '../api'
import { HttpError } from '../http'
import { capture, createHarness, envelopeBody, ok } from './http-fakes'

function setup() {
  const h = createHarness()
  const toasts: string[] = []
  const callEndpoint = createCallEndpoint({
    http: h.http,
    toast: (title) => toasts.push(title),
    hostOf: (service) => `https://api.example.com/${service}`,
  })
  return { h, toasts, callEndpoint }
}

const deleteFile = defineEndpoint({
  service: 'main',
  method: 'DELETE',
  path: '/files/:fileId',
  input: z.object({ fileId: z.number(), reason: z.optional(z.string()) }),
  output: z.null(),
  auth: true,
  summary: 'test',
})

const addFeedback = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/feedback/:kind/add',
  input: z.object({ kind: z.string(), content: z.string() }),
  output: z.object({ id: z.number() }),
  auth: true,
  summary: 'test',
})

describe('callEndpoint', () => {
  it('GET: service host + path, the rest of the input as query, and returns the data', async () => {
    const { h, callEndpoint } = setup()
    const policy = { softwareName: 'yingxiang-weapp', version: '2024.1', updatedAt: '2024-01-01' }
    h.reply(ok(envelopeBody(policy)))
    await expect(
      callEndpoint(getPolicyVersion, { softwareName: 'yingxiang-weapp' }),
    ).resolves.toEqual(policy)
    expect(h.sent[0]).toMatchObject({
      method: 'GET',
      url: 'https://api.example.com/main/app/version?softwareName=yingxiang-weapp',
    })
  })

  it('fills :params from the input and leaves them out of the query', async () => {
    const { h, callEndpoint } = setup()
    h.reply(
      ok(
        envelopeBody({
          kind: 'privacy',
          title: '隐私政策',
          version: '1',
          content: 'x',
          updatedAt: 'd',
        }),
      ),
    )
    await callEndpoint(getAgreement, { kind: 'privacy', softwareName: 'yingxiang-weapp' })
    expect(h.sent[0].url).toBe(
      'https://api.example.com/main/app/agreements/privacy?softwareName=yingxiang-weapp',
    )
  })

  it('DELETE: path param filled and encoded, rest in the query', async () => {
    const { h, callEndpoint } = setup()
    h.reply(ok(envelopeBody(null)))
    await callEndpoint(deleteFile, { fileId: 12, reason: '重复' })
    expect(h.sent[0]).toMatchObject({
      method: 'DELETE',
      url: 'https://api.example.com/main/files/12?reason=%E9%87%8D%E5%A4%8D',
    })
  })

  it('POST: the rest of the input goes in the JSON body', async () => {
    const { h, callEndpoint } = setup()
    h.reply(ok(envelopeBody({ id: 3 })))
    await expect(callEndpoint(addFeedback, { kind: 'app', content: '好用' })).resolves.toEqual({
      id: 3,
    })
    expect(h.sent[0].url).toBe('https://api.example.com/main/feedback/app/add')
    expect(h.sent[0].data).toBe('{"content":"好用"}')
  })

  it('a drifted response rejects with a clear error and toasts 服务端数据异常', async () => {
    const { h, toasts, callEndpoint } = setup()
    h.reply(ok(envelopeBody({ softwareName: 'yingxiang-weapp', version: 3 })))
    const result = await capture(
      callEndpoint(getPolicyVersion, { softwareName: 'yingxiang-weapp' }),
    )
    expect(result.error).toBeInstanceOf(ResponseDriftError)
    const message = (result.error as Error).message
    expect(message).toContain('GET main/app/version')
    expect(message).toContain('data.version')
    expect(message).toContain('data.updatedAt')
    expect(toasts).toEqual(['服务端数据异常'])
  })

  it('a body that is not an envelope at all is drift too', async () => {
    const { h, toasts, callEndpoint } = setup()
    h.reply(ok('<html>proxy login</html>'))
    await expect(
      callEndpoint(getPolicyVersion, { softwareName: 'yingxiang-weapp' }),
    ).rejects.toBeInstanceOf(ResponseDriftError)
    expect(toasts).toEqual(['服务端数据异常'])
  })

  it('http failures pass through with the http layer’s own toast, not the drift toast', async () => {
    const { h, toasts, callEndpoint } = setup()
    h.reply(ok({ code: 400, message: '', data: null, error: 'softwareName 过长' }, 400))
    await expect(callEndpoint(getPolicyVersion, { softwareName: 'x' })).rejects.toBeInstanceOf(
      HttpError,
    )
    expect(h.toasts()).toEqual(['softwareName 过长'])
    expect(toasts).toEqual([])
  })

  it('passes call options such as loading: false through', async () => {
    const { h, callEndpoint } = setup()
    h.hold()
    h.reply(ok(envelopeBody({ softwareName: 'a', version: '1', updatedAt: 'd' })))
    jest.useFakeTimers()
    const call = callEndpoint(getPolicyVersion, { softwareName: 'a' }, { loading: false })
    await jest.advanceTimersByTimeAsync(2000)
    h.release()
    await call
    expect(h.events).toEqual([])
  })
})

describe('buildPath', () => {
  it('throws when a path parameter is missing', () => {
    expect(() => buildPath('/files/:id', {})).toThrow('path parameter "id" missing')
  })

  it('encodes parameter values', () => {
    expect(buildPath('/a/:name', { name: 'x/y 张', keep: 1 })).toEqual({
      path: '/a/x%2Fy%20%E5%BC%A0',
      rest: { keep: 1 },
    })
  })
})
