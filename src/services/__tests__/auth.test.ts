import { logout as logoutEndpoint } from '@contract/main/account'
import type { Session } from '@contract/sso/auth'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { getAccessToken, useSessionStore } from '@/stores/session-store'
import { callEndpoint } from '../api'
import { signIn, signOut } from '../auth'
import { HttpError, NetworkError } from '../http'

jest.mock('../api', () => ({
  ...jest.requireActual<typeof import('../api')>('../api'),
  callEndpoint: jest.fn(),
}))
const call = jest.mocked(callEndpoint)

const session: Session = {
  access_token: 'access',
  token_type: 'bearer',
  expires_in: 7200,
  refresh_token: 'refresh',
  user: {
    id: 'u1',
    mobileMasked: '137****5678',
    nickname: '',
    avatarUrl: null,
    role: 'patient',
    realNameVerified: false,
    hasPassword: true,
    wechatBound: false,
    createdAt: '2026-11-22T00:00:00.000Z',
  },
}

beforeEach(() => {
  resetStores()
})

describe('signIn', () => {
  it('stores the token object and who signed in; the masked phone names a person without nickname', () => {
    signIn(session)
    expect(useSessionStore.getState().token).toEqual({
      access_token: 'access',
      token_type: 'bearer',
      expires_in: 7200,
      refresh_token: 'refresh',
    })
    expect(useAppStore.getState()).toMatchObject({
      hasLogin: true,
      userName: '137****5678',
      profile: session.user,
    })
  })
})

describe('signOut', () => {
  it('revokes the token on the server, quietly, then clears everything', async () => {
    signIn(session)
    call.mockResolvedValue({ ok: true })
    await signOut()
    expect(call).toHaveBeenCalledWith(
      logoutEndpoint,
      {},
      expect.objectContaining({ loading: false }),
    )
    expect(getAccessToken()).toBeNull()
    expect(useAppStore.getState()).toMatchObject({ hasLogin: false, userName: '', profile: null })
  })

  it('clears locally even offline or when the token was already revoked', async () => {
    signIn(session)
    call.mockRejectedValueOnce(new NetworkError('request:fail', false))
    await signOut()
    expect(getAccessToken()).toBeNull()
    signIn(session)
    call.mockRejectedValueOnce(
      new HttpError({ statusCode: 401, data: null, header: {} }, 'response-hook'),
    )
    await signOut()
    expect(useAppStore.getState().hasLogin).toBe(false)
  })

  it('drops any refusal of logout before the 401 rule can send the person to login', () => {
    signIn(session)
    call.mockResolvedValue({ ok: true })
    void signOut()
    const options = call.mock.calls[0][2]
    const hook = options?.hooks?.response
    expect(hook?.({ statusCode: 401, data: null, header: {} }, {} as never)).toBe(false)
    expect(hook?.({ statusCode: 200, data: null, header: {} }, {} as never)).toBeUndefined()
  })

  it('skips the server when told the token is already gone', async () => {
    signIn(session)
    await signOut({ revoke: false })
    expect(call).not.toHaveBeenCalled()
    expect(getAccessToken()).toBeNull()
  })
})
