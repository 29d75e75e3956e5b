import Taro from '@tarojs/taro'
import { REASONS } from '@contract/reasons'
import { useSessionStore } from '@/stores/session-store'
import { fetchFrame } from '../viewer'
import { shareBearer } from '../share-bearer'
import {
  enterShare,
  forgetShareSession,
  getShare,
  getSharedExam,
  getSharedGrant,
  isShareEnded,
  leaveShare,
  openShare,
  shareSessionOf,
} from '../shares'
import { createHarness, envelopeBody } from './http-fakes'

const PAGE = {}

const GRANT = {
  id: 'g1',
  status: 'active',
  statusLabel: '有效',
  sharerMasked: '张**',
  records: [],
  expiresAt: '2099-01-01T00:00:00.000Z',
  createdAt: '2026-11-23T00:00:00.000Z',
  watermark: '分享访客',
}

describe('shares service (the holder of a grant)', () => {
  let request: jest.SpyInstance
  beforeEach(() => {
    sessionStorage.clear()
    forgetShareSession('g1')
    leaveShare(PAGE)
    useSessionStore.getState().setToken({ access_token: 'login-tok' })
    request = jest.spyOn(Taro, 'request')
  })
  afterEach(() => request.mockRestore())

  const answer = (data: unknown, statusCode = 200) =>
    request.mockResolvedValueOnce({
      statusCode,
      data: statusCode === 200 ? envelopeBody(data) : data,
      header: {},
    } as never)

  it('opens a link with its code and reads through the share token, not the login’s', async () => {
    answer({ accessToken: 'yxs_abc', expiresAt: '2099-01-01T00:00:00.000Z', grant: GRANT })
    await openShare('tok123', '1234')
    let sent = request.mock.calls[0]![0]
    expect(sent.url).toMatch(/\/main\/shares\/tok123\/open$/)
    expect(JSON.parse(sent.data as string)).toEqual({ pickupCode: '1234' })
    // Kept for this tab (a reload keeps working), never in the login store.
    expect(JSON.parse(sessionStorage.getItem('yxs-share:g1')!)).toMatchObject({
      accessToken: 'yxs_abc',
    })
    expect(useSessionStore.getState().token?.access_token).toBe('login-tok')

    answer(GRANT)
    await getSharedGrant('g1')
    sent = request.mock.calls[1]![0]
    expect(sent.url).toMatch(/\/main\/shared\/g1$/)
    expect(sent.header.Authorization).toBe('Bearer yxs_abc')
  })

  it('a grantee without a link session reads with their own login token', async () => {
    answer({ ...GRANT, id: 'g2' })
    await getSharedGrant('g2')
    expect(request.mock.calls[0]![0].header.Authorization).toBe('Bearer login-tok')
  })

  it('the preview sends no code and counts nothing (a GET)', async () => {
    answer({
      sharerMasked: '张**',
      needsPickupCode: true,
      expiresAt: '2099-01-01T00:00:00.000Z',
      status: 'active',
      statusLabel: '有效',
      recordCount: 2,
    })
    await expect(getShare('tok123')).resolves.toMatchObject({ needsPickupCode: true })
    expect(request.mock.calls[0]![0].method).toBe('GET')
  })

  it('a session past its end is not used, and a stored one survives a reload of memory', () => {
    sessionStorage.setItem(
      'yxs-share:g1',
      JSON.stringify({ accessToken: 'yxs_old', expiresAt: '2000-01-01T00:00:00.000Z' }),
    )
    expect(shareSessionOf('g1')).toBeNull()
    sessionStorage.setItem(
      'yxs-share:g1',
      JSON.stringify({ accessToken: 'yxs_new', expiresAt: '2099-01-01T00:00:00.000Z' }),
    )
    expect(shareSessionOf('g1')?.accessToken).toBe('yxs_new')
  })

  it('while a shared page shows, frames go with the share token; after, with the login’s', async () => {
    sessionStorage.setItem(
      'yxs-share:g1',
      JSON.stringify({ accessToken: 'yxs_frames', expiresAt: '2099-01-01T00:00:00.000Z' }),
    )
    const h = createHarness({}, { token: 'login-tok' })
    const bytes = new Uint8Array([1]).buffer
    const reply = () =>
      h.reply({ statusCode: 200, data: bytes, header: { 'content-type': 'multipart/related' } })
    enterShare(PAGE, 'g1')
    expect(shareBearer()).toBe('yxs_frames')
    reply()
    await fetchFrame('1', '2', '3', 1, h.http)
    expect(h.sent[0]!.header.Authorization).toBe('Bearer yxs_frames')
    leaveShare(PAGE)
    reply()
    await fetchFrame('1', '2', '3', 1, h.http)
    expect(h.sent[1]!.header.Authorization).toBe('Bearer login-tok')
  })

  it('when a shared page closes, the page below keeps its hold whichever event comes first', () => {
    sessionStorage.setItem(
      'yxs-share:g1',
      JSON.stringify({ accessToken: 'yxs_below', expiresAt: '2099-01-01T00:00:00.000Z' }),
    )
    const below = {}
    const top = {}
    enterShare(below, 'g1')
    leaveShare(below) // hidden under the next page
    enterShare(top, 'g1')
    // Back: the page below shows again before the closing page lets go.
    enterShare(below, 'g1')
    leaveShare(top)
    expect(shareBearer()).toBe('yxs_below')
    leaveShare(below)
    expect(shareBearer()).toBeNull()
  })

  it('a frame refused 403 while a shared page shows says the server’s words on the slice', async () => {
    const h = createHarness({}, { token: 'login-tok' })
    const refusal = (error: string) =>
      h.reply({
        statusCode: 403,
        data: new Uint8Array(Buffer.from(JSON.stringify({ code: 403, error }))).buffer,
        header: { 'content-type': 'application/json' },
      })
    enterShare(PAGE, 'g1')
    // Without TextDecoder (jsdom, older WeChat): the ended grant's own words.
    refusal('链接无效或已失效')
    await expect(fetchFrame('1', '2', '3', 1, h.http)).rejects.toThrow('授权已失效')
    const decoder = (globalThis as { TextDecoder?: unknown }).TextDecoder
    Object.assign(globalThis, {
      TextDecoder: jest.requireActual<typeof import('util')>('util').TextDecoder,
    })
    try {
      refusal('链接无效或已失效')
      await expect(fetchFrame('1', '2', '3', 1, h.http)).rejects.toThrow('链接无效或已失效')
    } finally {
      Object.assign(globalThis, { TextDecoder: decoder })
    }
    leaveShare(PAGE)
    // The person's own pages keep the usual quiet failure.
    refusal('授权已失效')
    const own = await fetchFrame('1', '2', '3', 1, h.http).catch((error: unknown) => error)
    expect((own as Error).message).not.toContain('授权已失效')
  })

  it('tells an ended grant (403 授权已失效 or 链接无效) from other failures', async () => {
    const toast = jest.spyOn(Taro, 'showToast')
    answer({ code: 403, error: '授权已失效', reason: REASONS.grantEnded }, 403)
    const ended = await getSharedExam('g1', 'x1').catch((error: unknown) => error)
    expect(isShareEnded(ended)).toBe(true)
    // The page says it in full; no toast on top.
    expect(toast).not.toHaveBeenCalled()
    toast.mockRestore()
    answer({ code: 404, error: '检查不存在或您无权查看' }, 404)
    const missing = await getSharedExam('g1', 'x1').catch((error: unknown) => error)
    expect(isShareEnded(missing)).toBe(false)
  })

  it('decides by the reason the server gives, never by its words', async () => {
    const refusal = async (body: object) => {
      answer({ code: 403, message: '无权访问', data: null, ...body }, 403)
      return getSharedExam('g1', 'x1').catch((error: unknown) => error)
    }
    // Reworded text, same reasons: still ended.
    expect(
      isShareEnded(await refusal({ error: '该授权已经结束', reason: REASONS.grantEnded })),
    ).toBe(true)
    expect(
      isShareEnded(await refusal({ error: '分享链接已过期', reason: REASONS.grantLinkInvalid })),
    ).toBe(true)
    // The very words of an ended grant, but another reason or none: some other refusal.
    expect(
      isShareEnded(await refusal({ error: '授权已失效', reason: REASONS.familyNotManaged })),
    ).toBe(false)
    expect(isShareEnded(await refusal({ error: '链接无效或已失效', reason: null }))).toBe(false)
    expect(isShareEnded(await refusal({ message: '授权已失效', error: null }))).toBe(false)
  })
})
