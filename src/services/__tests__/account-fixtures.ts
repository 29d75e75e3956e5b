import type { Session, UserProfile } from '@contract/sso/auth'
import { HttpError } from '@/services/http'

export function profile(overrides: Partial<UserProfile> = {}): UserProfile {
  return {
    id: 'u1',
    mobileMasked: '138****8000',
    nickname: '张三',
    avatarUrl: null,
    role: 'patient',
    realNameVerified: false,
    hasPassword: true,
    wechatBound: false,
    createdAt: '2026-11-22T00:00:00.000Z',
    ...overrides,
  }
}

export function session(overrides: Partial<UserProfile> = {}, token = 'tok-1'): Session {
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: 7200,
    refresh_token: `refresh-${token}`,
    user: profile(overrides),
  }
}

/** What the http layer throws when the server refuses with `{ error }`. */
export function refusal(error: string, statusCode = 400): HttpError {
  return new HttpError(
    { statusCode, data: { code: statusCode, message: error, data: null, error }, header: {} },
    statusCode === 401 ? 'unauthorized' : 'business',
  )
}

/** Lets pending promise callbacks (and the React updates they cause) run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await Promise.resolve()
}
