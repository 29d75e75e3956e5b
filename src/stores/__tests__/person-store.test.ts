import { FAMILY_MESSAGES } from '@contract/main/family'
import { REASONS } from '@contract/reasons'
import { HttpError } from '@/services/http'
import { forPerson, usePersonStore } from '../person-store'
import { resetStores } from '../reset-stores'

const CHILD = { userId: 'u1', personId: 'p-child', label: '子女 张*宝' }

function refusal(body: Record<string, unknown>): HttpError {
  return new HttpError(
    { statusCode: 403, header: {}, data: { code: 403, message: '无权访问', data: null, ...body } },
    'business',
  )
}

/** forPerson's answer to one refused list call: the error it passed on, and whom it left chosen. */
async function refused(body: Record<string, unknown>) {
  usePersonStore.getState().choose(CHILD)
  const error = refusal(body)
  await expect(forPerson(Promise.reject(error))).rejects.toBe(error)
  return usePersonStore.getState().chosen
}

beforeEach(() => {
  resetStores()
})

describe('forPerson (a list call for the chosen 就诊人)', () => {
  it('goes back to 本人 when the server says family.not-managed, whatever its words', async () => {
    expect(
      await refused({ error: FAMILY_MESSAGES.notManaged, reason: REASONS.familyNotManaged }),
    ).toBeNull()
    expect(
      await refused({ error: '该家人已解除与您的关系', reason: REASONS.familyNotManaged }),
    ).toBeNull()
  })

  it('keeps the choice for any other refusal, even one in the same words', async () => {
    expect(
      await refused({ error: FAMILY_MESSAGES.notManaged, reason: REASONS.grantEnded }),
    ).toEqual(CHILD)
    expect(await refused({ error: FAMILY_MESSAGES.notManaged, reason: null })).toEqual(CHILD)
    expect(await refused({ error: null, message: FAMILY_MESSAGES.notManaged })).toEqual(CHILD)
  })

  it('passes a success through and keeps the choice', async () => {
    usePersonStore.getState().choose(CHILD)
    await expect(forPerson(Promise.resolve([1]))).resolves.toEqual([1])
    expect(usePersonStore.getState().chosen).toEqual(CHILD)
  })
})
