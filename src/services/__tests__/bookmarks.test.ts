import Taro from '@tarojs/taro'
import { useSessionStore } from '@/stores/session-store'
import { addBookmark, deleteBookmark, listBookmarks } from '../bookmarks'
import { envelopeBody } from './http-fakes'

const MARK = {
  id: 'b1',
  examId: 'x1',
  seriesUid: '1.2',
  sopInstanceUid: '1.2.3',
  frame: 1,
  note: '',
  createdAt: '2026-11-21T02:00:00.000Z',
}

describe('bookmarks service (contract/main/bookmarks.ts)', () => {
  let request: jest.SpyInstance
  beforeEach(() => {
    useSessionStore.getState().setToken({ access_token: 'tok' })
    request = jest.spyOn(Taro, 'request')
  })
  afterEach(() => request.mockRestore())

  const answer = (data: unknown) =>
    request.mockResolvedValueOnce({
      statusCode: 200,
      data: envelopeBody(data),
      header: {},
    } as never)

  it('lists an exam’s bookmarks with the token, validated by the contract', async () => {
    answer([MARK])
    await expect(listBookmarks('x1')).resolves.toEqual([MARK])
    const sent = request.mock.calls[0]![0]
    expect(sent.method).toBe('GET')
    expect(sent.url).toMatch(/\/main\/exams\/x1\/bookmarks$/)
    expect(sent.header.Authorization).toBe('Bearer tok')
  })

  it('adds one: frame 1 unless given, no note field when there is none', async () => {
    answer(MARK)
    await addBookmark({ examId: 'x1', seriesUid: '1.2', sopInstanceUid: '1.2.3' })
    let sent = request.mock.calls[0]![0]
    expect(sent.method).toBe('POST')
    expect(sent.url).toMatch(/\/main\/exams\/x1\/bookmarks$/)
    expect(JSON.parse(sent.data as string)).toEqual({
      seriesUid: '1.2',
      sopInstanceUid: '1.2.3',
      frame: 1,
    })

    answer({ ...MARK, frame: 4, note: '结节' })
    await addBookmark({
      examId: 'x1',
      seriesUid: '1.2',
      sopInstanceUid: '1.2.3',
      frame: 4,
      note: '结节',
    })
    sent = request.mock.calls[1]![0]
    expect(JSON.parse(sent.data as string)).toEqual({
      seriesUid: '1.2',
      sopInstanceUid: '1.2.3',
      frame: 4,
      note: '结节',
    })
  })

  it('deletes one by id', async () => {
    answer({ ok: true })
    await expect(deleteBookmark('b1')).resolves.toBeUndefined()
    const sent = request.mock.calls[0]![0]
    expect(sent.method).toBe('DELETE')
    expect(sent.url).toMatch(/\/main\/bookmarks\/b1$/)
  })
})
